#!/usr/bin/env bash
# Goal round trip over ROS 1 on loopback, side by side: the same Python SimpleActionClient
# against Skipper's SimpleActionServer (goal callback), the same server in a torch-ros Lua
# script under `skipper lua` (lua_bench_server.lua) and rospy's (goal callback and execute
# callback). Not part of CI; numbers go in docs/actionlib.md and docs/lua.md.
# Each server is a process of its own hosting only that server (crates/actionlib/examples/
# bench_server.rs and scripts/ros/py_bench_server.py), so their CPU compares like with like.
# GOALS goals per server (default 1000), sequential, RATE goals per second (default 20,
# where rospy's server reproduces the round trips measured of rospy elsewhere; 0 sends them
# back to back, and the status list then holds every goal of the last 5 s, see bench.py).
# BEFORE_BIN: an older build's bench_server (crates/actionlib/examples/bench_server.rs),
# run beside the current one as "skipper before" (the same client, the same run).
# SERVERS: which servers run (default all: skipper lua rospy rospy_execute floor).
# MEMORY_SECONDS (default 45; 0: none): then bench_memory.py bursts goals from 5 clients
# at the Skipper and rospy goal-callback servers for that long and prints each one's
# resident memory before, at its peak and after MEMORY_IDLE (default 15) idle seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
ROS_PY=/usr/bin/python3
GOALS="${GOALS:-1000}"
RATE="${RATE:-20}"
# STATUS_LIST_TIMEOUT (s): set <ns>/status_list_timeout for every server (a diagnostic:
# how much of the round trip is the client decoding long status lists)
# LUA_BIN: what runs the Lua server instead of the release `skipper lua` (the library's
# runner, `cargo build --release -p skipper-torch-ros --example run_script`, so that only that
# crate is built: the same run_file as `skipper lua`)
SERVERS="${SERVERS:-skipper lua rospy rospy_execute floor}"
MEMORY_SECONDS="${MEMORY_SECONDS:-45}"
MEMORY_IDLE="${MEMORY_IDLE:-15}"
want() { [[ " $SERVERS " == *" $1 "* ]]; }
cargo build --release -q -p skipper-actionlib --examples
examples="${CARGO_TARGET_DIR:-$root/target}/release/examples"
if [ -n "${LUA_BIN:-}" ]; then
  lua_cmd=("$LUA_BIN")
elif want lua; then
  cargo build --release -q -p skipper --bin skipper
  lua_cmd=("${CARGO_TARGET_DIR:-$root/target}/release/skipper" lua)
fi
source scripts/ros/roscore.sh
if [ -n "${STATUS_LIST_TIMEOUT:-}" ]; then
  for ns in /bench_simple /bench_before /lua_goal_cb /py_goal_cb /py_execute_cb; do
    rosparam set "$ns/status_list_timeout" "$STATUS_LIST_TIMEOUT"
  done
fi
if [ -n "${BEFORE_BIN:-}" ]; then
  "$BEFORE_BIN" /bench_before /skipper_bench_before >"$tmp/before.log" 2>&1 &
  before=$!
  pids+=($before)
fi
if want skipper; then
  "$examples/bench_server" /bench_simple /skipper_bench >"$tmp/skipper.log" 2>&1 &
  skipper=$!
  pids+=($skipper)
fi
if want lua; then
  "${lua_cmd[@]}" scripts/ros/lua_bench_server.lua /lua_goal_cb >"$tmp/lua.log" 2>&1 &
  lua=$!
  pids+=($lua)
fi
if want rospy; then
  $ROS_PY scripts/ros/py_bench_server.py /py_goal_cb goal_cb >"$tmp/py1.log" 2>&1 &
  py1=$!
  pids+=($py1)
fi
if want rospy_execute; then
  $ROS_PY scripts/ros/py_bench_server.py /py_execute_cb execute_cb >"$tmp/py2.log" 2>&1 &
  py2=$!
  pids+=($py2)
fi
sleep 3
bench() { $ROS_PY scripts/ros/bench.py "$@" "$GOALS" "$RATE" || true; }
[ -n "${BEFORE_BIN:-}" ] && bench "skipper before" /bench_before "$before"
want skipper && bench "skipper (goal callback)" /bench_simple "$skipper"
want lua && bench "skipper lua (goal callback)" /lua_goal_cb "$lua"
want rospy && bench "rospy (goal callback)" /py_goal_cb "$py1"
want rospy_execute && bench "rospy (execute callback)" /py_execute_cb "$py2"
# the floor: the same messages per goal with no ROS at all (what the machine charges)
if want floor; then
  (cd scripts/ros && $ROS_PY floor.py "$examples/socket_floor" "$GOALS" "$RATE") || true
fi
if [ "$MEMORY_SECONDS" != 0 ]; then
  memory() { $ROS_PY scripts/ros/bench_memory.py "$@" "$MEMORY_SECONDS" "$MEMORY_IDLE" || true; }
  [ -n "${BEFORE_BIN:-}" ] && memory "skipper before" /bench_before "$before"
  want skipper && memory "skipper (goal callback)" /bench_simple "$skipper"
  want rospy && memory "rospy (goal callback)" /py_goal_cb "$py1"
fi
true
