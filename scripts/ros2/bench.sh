#!/usr/bin/env bash
# ROS 2 benchmarks (not in CI), inside a loopback-only network namespace of their own:
#  1. goal round trip under an rclpy ActionClient: Skipper's goal server
#     (crates/ros2/examples/ros2_bench_server.rs) serving the compiled skipper_msgs/Goto
#     (`skipper`) and the goto goal kind's action made at run time from its fields
#     (`skipper-rt`, the same type on the wire), and an rclpy ActionServer doing the same
#     work (py_bench_server.py), run alternately ROUNDS times, GOALS goals each:
#     p50/p90/p99 and the server's CPU per goal (SERVERS picks which, default all three);
#  2. `skipper run --ros2 --robots 100` publishing every robot's topics at 10 Hz for
#     SECONDS: the CPU it takes, with no subscriber and with an rclpy node subscribed to
#     every robot's odom and scan.
# Run under nice -n 19 on a shared machine; prints the load average.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
# SKIP_BUILD=1: use the release builds already there
GOALS="${GOALS:-500}" ROUNDS="${ROUNDS:-3}" SECONDS_RUN="${SECONDS_RUN:-20}"
SERVERS="${SERVERS:-skipper skipper-rt rclpy}"
: "${SKIPPER_BIN:=${CARGO_TARGET_DIR:-$root/target}/release/skipper}"
py="${ROS2_VENV:-$root/.venv-ros2}/bin/python"
# one build of the binary and the example together (built apart, the example's features
# differ from the workspace's and RustDDS is compiled a second time)
[ -n "${SKIP_BUILD:-}" ] || cargo build --release -q -p skipper -p skipper-ros2 --bins --examples
server="${CARGO_TARGET_DIR:-$root/target}/release/examples/ros2_bench_server"
source scripts/ros2/netns.sh
trap netns_down EXIT
ns="skr2bench$$"
netns_up "$ns"
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

serve() {  # LABEL CMD...: start a server, run the client against it, stop the server
  local label="$1"; shift
  exec 3> >(in_ns "$ns" "$@" >/dev/null 2>&1)
  local pid=""
  for _ in $(seq 100); do
    pid="$(ip netns pids "$ns" | head -1)"; [ -n "$pid" ] && break; sleep 0.1
  done
  in_ns "$ns" "$py" scripts/ros2/bench.py "$GOALS" "$pid" "$label"
  exec 3>&-
  for _ in $(seq 100); do [ -z "$(ip netns pids "$ns")" ] && break; sleep 0.1; done
}

echo "== goal round trips, $GOALS goals, alternating, $ROUNDS rounds"
for r in $(seq "$ROUNDS"); do
  for s in $SERVERS; do
    case "$s" in
      skipper) serve skipper "$server" ;;
      skipper-rt) serve skipper-rt "$server" --run-time ;;
      rclpy) serve rclpy "$py" scripts/ros2/py_bench_server.py ;;
    esac
  done
done

if [ "$SECONDS_RUN" -le 0 ]; then  # SECONDS_RUN=0: the goal round trips only
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi
echo "== 100 robots, every topic at 10 Hz, ${SECONDS_RUN}s"
cpu_of() { local f; f="$(cut -d')' -f2 "/proc/$1/stat")"; set -- $f; echo $(( ${12} + ${13} )); }
for subscribed in no yes; do
  in_ns "$ns" "$SKIPPER_BIN" run --ros2 --robots 100 --no-log --until "$((SECONDS_RUN + 15))s" >/dev/null 2>&1 &
  sleep 0.5
  pid="$(ip netns pids "$ns" | head -1)"
  if [ "$subscribed" = yes ]; then
    # counts what it receives over the same window as the CPU below (after 10 s of
    # start-up and discovery) and prints the rates
    in_ns "$ns" "$py" - "$SECONDS_RUN" <<'PY' >"$ns.sink" 2>&1 &
import sys, time, rclpy
from rclpy.node import Node
from nav_msgs.msg import Odometry
from sensor_msgs.msg import LaserScan
rclpy.init(); n = Node("bench_sink")
got = {"odom": 0, "scan": 0}
def count(kind):
    def cb(_m):
        got[kind] += 1
    return cb
for k in range(1, 101):
    n.create_subscription(Odometry, f"/robot{k}/odom", count("odom"), 10)
    n.create_subscription(LaserScan, f"/robot{k}/scan", count("scan"), 10)
def spin_until(t):
    while time.monotonic() < t:
        rclpy.spin_once(n, timeout_sec=0.05)
start = time.monotonic()
spin_until(start + 10)
c0, t0 = dict(got), time.monotonic()
spin_until(t0 + float(sys.argv[1]))
w = time.monotonic() - t0
print(f"the subscriber received {(got['odom'] - c0['odom']) / w:.0f} odom and "
      f"{(got['scan'] - c0['scan']) / w:.0f} scan messages a second (100 robots at 10 Hz: 1000 each)")
PY
  fi
  sleep 10   # start-up and discovery
  c0=$(cpu_of "$pid"); t0=$(date +%s.%N)
  sleep "$SECONDS_RUN"
  c1=$(cpu_of "$pid"); t1=$(date +%s.%N)
  python3 -c "import os; t=os.sysconf('SC_CLK_TCK'); c=($c1-$c0)/t; w=$t1-$t0; print(f'100 robots, subscriber: $subscribed: {c:.2f} s CPU in {w:.1f} s = {100*c/w:.0f}% of one core')"
  if [ "$subscribed" = yes ]; then
    for _ in $(seq 100); do grep -q "received" "$ns.sink" && break; sleep 0.1; done
    cat "$ns.sink"; rm -f "$ns.sink"
  fi
  for p in $(ip netns pids "$ns"); do kill "$p" 2>/dev/null || true; done
  for _ in $(seq 100); do [ -z "$(ip netns pids "$ns")" ] && break; sleep 0.1; done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
