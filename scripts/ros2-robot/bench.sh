#!/usr/bin/env bash
# The ROS 2 robots' benchmark (not in CI; needs scripts/ros2/install.sh only for the
# namespace tools): inside a loopback-only network namespace,
#  1. latency: how long from a robot's odometry (or scan) to the cmd_vel it causes, at a
#     10 Hz cycle (crates/ros2/examples/ros2_vehicle_bench.rs latency; p50/p90/p99);
#  2. CPU: `skipper run` driving N ROS 2 robots at 10 Hz (the robots, N nodes' worth of
#     odometry at 20 Hz and 360-beam scans at 10 Hz, are another process), beside the same
#     agent on N simulated robots at real-time pace; the skipper process's CPU is read from
#     /proc/PID/stat over SECONDS after a 5 s start.
# `uptime` before and after. CYCLES (600), N (10), BENCH_SECONDS (20) set the sizes.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
CYCLES="${CYCLES:-600}" N="${N:-10}" SECONDS_RUN="${BENCH_SECONDS:-20}"
: "${SKIPPER_BIN:=${CARGO_TARGET_DIR:-$root/target}/release/skipper}"
if [ -z "${SKIP_BUILD:-}" ]; then
  cargo build --release -q -p skipper
  cargo build --release -q -p skipper-ros2 --example ros2_vehicle_bench
fi
bench="${CARGO_TARGET_DIR:-$root/target}/release/examples/ros2_vehicle_bench"
source scripts/ros2/netns.sh
tmp="$(mktemp -d)"
ns="skrbench$$"
cleanup() { exec 3>&- 2>/dev/null || true; netns_down; rm -rf "$tmp"; }
trap cleanup EXIT
netns_up "$ns"
hz="$(getconf CLK_TCK)"
cpu_of() {  # PID: utime + stime, in clock ticks
  awk '{print $14 + $15}' "/proc/$1/stat"
}
measure() {  # LABEL ARGS...: skipper run ARGS in the namespace; its CPU (% of one core)
  local label="$1"; shift
  ip netns exec "$ns" "$SKIPPER_BIN" run "$@" --no-log --until "$((SECONDS_RUN + 10))s" >"$tmp/run.out" 2>&1 &
  local pid=$!
  sleep 5
  local a; a=$(cpu_of "$pid")
  sleep "$SECONDS_RUN"
  local b; b=$(cpu_of "$pid")
  kill -INT "$pid"; wait "$pid" || true
  echo "$label: $(awk -v d="$((b - a))" -v hz="$hz" -v s="$SECONDS_RUN" 'BEGIN{printf "%.1f", 100 * d / hz / s}') % of one core"
}
echo "machine: $(nproc) cores; before: $(uptime)"
echo "== 1. latency (${CYCLES} cycles at 10 Hz)"
ip netns exec "$ns" "$bench" latency "$CYCLES" 2>/dev/null
echo "== 2. CPU of driving $N robots at 10 Hz, over ${SECONDS_RUN} s"
exec 3> >(ip netns exec "$ns" "$bench" robots "$N" >"$tmp/robots.out" 2>&1)
for _ in $(seq 300); do grep -q "robots up" "$tmp/robots.out" 2>/dev/null && break; sleep 0.1; done
vehicles=()
for i in $(seq "$N"); do vehicles+=(--vehicle "ros2:/bot$i"); done
measure "ROS 2 robots (--vehicle ros2:/bot1 .. /bot$N)" scripts/ros2-robot/agents/cruise.xabsl "${vehicles[@]}"
exec 3>&-
measure "simulated robots (--robots $N --realtime)" scripts/ros2-robot/agents/cruise.xabsl --robots "$N" --realtime
echo "after: $(uptime)"
