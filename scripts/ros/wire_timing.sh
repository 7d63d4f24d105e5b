#!/usr/bin/env bash
# What each action server puts on the wire per goal and when, side by side: Skipper's
# bench_server (and BEFORE_BIN, an older build of it, if given) and rospy's goal-callback
# server (py_bench_server.py), each traced with `perf record` of its sendto / recvfrom
# system calls while bench.py sends GOALS goals (default 300) at RATE per second (default
# 20); wire_timing.py prints the time from a goal's arrival to the first reply, from the
# feedback to the result, and the status lists sent per goal. Needs perf and root (or
# perf_event_paranoid <= 1). Not part of CI; what it measured is in docs/actionlib.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
ROS_PY=/usr/bin/python3
GOALS="${GOALS:-300}"
RATE="${RATE:-20}"
cargo build --release -q -p skipper-actionlib --examples
examples="${CARGO_TARGET_DIR:-$root/target}/release/examples"
source scripts/ros/roscore.sh
# trace NAME NS PID: perf on PID while bench.py sends goals to NS
trace() {
  perf record -q -o "$tmp/$2.data" -e syscalls:sys_enter_sendto,syscalls:sys_enter_recvfrom,syscalls:sys_exit_recvfrom -p "$3" 2>"$tmp/perf.err" &
  local perf=$!
  sleep 1   # perf attaches
  $ROS_PY scripts/ros/bench.py "$1" "$2" "$3" "$GOALS" "$RATE" >/dev/null || true
  kill -INT "$perf"
  wait "$perf" || true
  perf script -i "$tmp/$2.data" 2>/dev/null | $ROS_PY scripts/ros/wire_timing.py "$1"
}
"$examples/bench_server" /bench_simple /skipper_bench >"$tmp/skipper.log" 2>&1 &
skipper=$!
pids+=($skipper)
if [ -n "${BEFORE_BIN:-}" ]; then
  "$BEFORE_BIN" /bench_before /skipper_bench_before >"$tmp/before.log" 2>&1 &
  before=$!
  pids+=($before)
fi
$ROS_PY scripts/ros/py_bench_server.py /py_goal_cb goal_cb >"$tmp/py1.log" 2>&1 &
py1=$!
pids+=($py1)
sleep 3
[ -n "${BEFORE_BIN:-}" ] && trace "skipper before" /bench_before "$before"
trace "skipper" /bench_simple "$skipper"
trace "rospy (goal callback)" /py_goal_cb "$py1"
true
