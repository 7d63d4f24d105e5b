#!/usr/bin/env bash
# ROS 2 interop: real rclpy (Jazzy wheels in .venv-ros2, from install.sh) against
# `skipper run --ros2`. Every DDS process runs in a network namespace made here with only
# loopback up (the fleet: namespaces joined by veth through a bridge namespace, addresses
# from 192.0.2.0/24, the documentation test net); the trap stops every process and
# removes every namespace. Checks (checks.py): topics, types, frames and rates, /tf
# against odom, /clock with use_sim_time, /rosout, parameters, cmd_vel and goal_pose,
# goto goals (feedback, result, cancel, preemption), run_option and run_mission goals,
# the AUV's topics, TwistStamped cmd_vel, `skipper action send --ros2`, a fleet of 3 hosts
# x 5 robots driven from a fourth host; goal kinds as actions of run-time types, through
# the interface packages `skipper interfaces --ros2` writes (kinds.py: the graph's types
# and the type hashes; tutorial 3's `advance` goal); nav2's NavigateToPose (nav2.py).
set -euo pipefail
# the Python peers' output is read while they run: unbuffered whatever the environment
# says (see scripts/ros/run.sh: rostopic hz's lines sat in its buffer without it)
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")/../.."
root="$PWD"
: "${SKIPPER_BIN:=${CARGO_TARGET_DIR:-$root/target}/release/skipper}"
venv="${ROS2_VENV:-$root/.venv-ros2}"
py="$venv/bin/python"
[ -x "$py" ] || { echo "no ROS 2 venv: run scripts/ros2/install.sh" >&2; exit 1; }
source scripts/ros2/netns.sh
tmp="$(mktemp -d)"
tag="skr2$$"
cleanup() { netns_down; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL $*"; for f in "$tmp"/*.log "$tmp"/*.err "$tmp"/*.out; do echo "--- $f"; tail -15 "$f"; done; exit 1; }
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST RMW_IMPLEMENTATION=rmw_fastrtps_cpp
total=0
rclpy_checks() {  # NS LOG ARGS...: checks.py in namespace NS
  local ns="$1" log="$2"; shift 2
  in_ns "$ns" timeout 300 "$py" scripts/ros2/checks.py "$@" 2>"$tmp/$log.err" | tee "$tmp/$log.out" \
    || fail "checks.py $*"
  total=$((total + $(grep -c '^ok ' "$tmp/$log.out")))
}
skipper_in() {  # NS LOG ARGS...: skipper run in namespace NS, in the background
  local ns="$1" log="$2"; shift 2
  in_ns "$ns" "$SKIPPER_BIN" run "$@" >"$tmp/$log.log" 2>&1 &
}
py_in() {  # NS LOG SCRIPT ARGS...: an rclpy script of scripts/ros2 in namespace NS
  local ns="$1" log="$2" script="$3"; shift 3
  in_ns "$ns" timeout 300 "$py" "scripts/ros2/$script" "$@" 2>"$tmp/$log.err" | tee "$tmp/$log.out" \
    || fail "$script $*"
  total=$((total + $(grep -c '^ok ' "$tmp/$log.out")))
}
interfaces() {  # NAME [CONTROLLER]: skipper interfaces --ros2 into $tmp/if-NAME, printed hashes in $tmp/if-NAME.out
  local name="$1"; shift
  "$SKIPPER_BIN" interfaces --ros2 "$tmp/if-$name" "$@" >"$tmp/if-$name.out" 2>&1 || fail "skipper interfaces --ros2 $*"
}

echo "== 0. the interface packages skipper interfaces --ros2 writes: the clients below are built on them"
interfaces builtin
diff -r "$tmp/if-builtin/skipper_msgs" interfaces/ros2/skipper_msgs >"$tmp/if.diff" \
  || fail "skipper interfaces --ros2 differs from interfaces/ros2/skipper_msgs: $(cat "$tmp/if.diff")"
bash scripts/ros2/build_pkg.sh skipper_msgs "$tmp/if-builtin/skipper_msgs" "$venv"
echo "ok   skipper interfaces --ros2: skipper_msgs as checked in, built with cmake"; total=$((total + 1))

echo "== 1. a ground robot"
netns_up "$tag-a"
skipper_in "$tag-a" ground --ros2 --no-log
rclpy_checks "$tag-a" ground ground
grep -q "ROS 2: node /skipper on domain 0" "$tmp/ground.log" || fail "no start line"
in_ns "$tag-a" timeout 120 "$SKIPPER_BIN" action send --ros2 /robot1/goto x=-1 y=1 --wait 20s >"$tmp/send.out" 2>&1 \
  || fail "skipper action send --ros2"
grep -q "^feedback:" "$tmp/send.out" && grep -q "^SUCCEEDED" "$tmp/send.out" || fail "send: $(cat "$tmp/send.out")"
echo "ok   skipper action send --ros2 /robot1/goto: feedback, SUCCEEDED"
n="$("$py" scripts/ros2/yaml_blocks.py "$tmp/send.out")" || fail "send's YAML: $(cat "$tmp/send.out")"
echo "ok   skipper action send --ros2 prints goal, feedback and result as PyYAML writes them ($n)"
# a reader that stops early (| head) leaves the command to finish its goal, not to panic
{ rc=0; in_ns "$tag-a" timeout 120 "$SKIPPER_BIN" action send --ros2 /robot1/goto "{x: -1, y: -1}" --wait 20s \
  2>"$tmp/head.err" || rc=$?; echo "exit $rc" >"$tmp/head.status"; } | head -1 >/dev/null
[ "$(cat "$tmp/head.status")" = "exit 0" ] || fail "send | head -1: $(cat "$tmp/head.status") $(cat "$tmp/head.err")"
echo "ok   skipper action send --ros2 | head -1: the goal still ends (exit 0)"
status=0
in_ns "$tag-a" timeout 60 "$SKIPPER_BIN" action send --ros2 /robot1/goto x=-4 y=4 --timeout 1s >"$tmp/cancel.out" 2>&1 || status=$?
[ "$status" = 1 ] && grep -q "^CANCELED" "$tmp/cancel.out" || fail "send --timeout: $status $(cat "$tmp/cancel.out")"
echo "ok   skipper action send --ros2 --timeout 1s: the goal is canceled (CANCELED, exit 1)"
total=$((total + 4))
netns_down

echo "== 2. an XABSL agent: run_option"
interfaces xabsl examples/xabsl/goals/agents.xabsl
bash scripts/ros2/build_pkg.sh skipper_msgs "$tmp/if-xabsl/skipper_msgs" "$venv"
netns_up "$tag-b"
skipper_in "$tag-b" xabsl examples/xabsl/goals/agents.xabsl --ros2 --no-log --speed 4
py_in "$tag-b" xabsl-types kinds.py types "$tmp/if-xabsl.out" \
  /robot1/run_option=skipper_msgs/action/RunOption /robot1/goto=skipper_msgs/action/Goto
rclpy_checks "$tag-b" xabsl xabsl
in_ns "$tag-b" timeout 120 "$SKIPPER_BIN" action send --ros2 /robot1/run_option option=turn_to \
  'parameters={"yaw": 1.0}' --wait 20s >"$tmp/option.out" 2>&1 || fail "send run_option: $(cat "$tmp/option.out")"
n="$("$py" scripts/ros2/yaml_blocks.py "$tmp/option.out" option=turn_to 'parameters={"yaw": 1.0}')" \
  || fail "run_option's YAML: $(cat "$tmp/option.out")"
echo "ok   skipper action send --ros2 /robot1/run_option: a JSON text field in quotes, as PyYAML writes it ($n)"
total=$((total + 1))
netns_down

echo "== 3. a mission: the AUV's topics and run_mission"
interfaces mission examples/missions/test_mission.lua
bash scripts/ros2/build_pkg.sh skipper_msgs "$tmp/if-mission/skipper_msgs" "$venv"
netns_up "$tag-c"
skipper_in "$tag-c" mission examples/missions/test_mission.lua --ros2 --no-log --speed 20
py_in "$tag-c" mission-types kinds.py types "$tmp/if-mission.out" /tethys/run_mission=skipper_msgs/action/RunMission
rclpy_checks "$tag-c" mission mission
netns_down

echo "== 4. --ros-args, ROS_DOMAIN_ID, TwistStamped cmd_vel"
netns_up "$tag-d"
ROS_DOMAIN_ID=42 in_ns "$tag-d" "$SKIPPER_BIN" run --ros2 --no-log --ros-args -r __node:=fleet_a \
  -r __ns:=/site -p stamped_cmd_vel:=true >"$tmp/args.log" 2>&1 &
ROS_DOMAIN_ID=42 in_ns "$tag-d" timeout 120 "$py" - >"$tmp/args.out" 2>"$tmp/args.err" <<'PY' || fail "--ros-args and TwistStamped"
import time, rclpy
from rclpy.node import Node
from geometry_msgs.msg import TwistStamped
from nav_msgs.msg import Odometry
rclpy.init(); n = Node("args_check")
end = time.monotonic() + 30
while time.monotonic() < end and ("fleet_a", "/site") not in n.get_node_names_and_namespaces():
    rclpy.spin_once(n, timeout_sec=0.1)
assert ("fleet_a", "/site") in n.get_node_names_and_namespaces(), n.get_node_names_and_namespaces()
print("ok   --ros-args -r __node:=fleet_a -r __ns:=/site on domain 42")
seen = []
n.create_subscription(Odometry, "/site/robot1/odom", lambda o: seen.append(o.twist.twist.linear.x), 10)
p = n.create_publisher(TwistStamped, "/site/robot1/cmd_vel", 10)
end = time.monotonic() + 30
while time.monotonic() < end and not (seen and abs(seen[-1] - 0.2) < 0.02):
    t = TwistStamped(); t.twist.linear.x = 0.2; p.publish(t); rclpy.spin_once(n, timeout_sec=0.05)
assert seen and abs(seen[-1] - 0.2) < 0.02, seen[-3:]
print("ok   -p stamped_cmd_vel:=true: cmd_vel as geometry_msgs/TwistStamped drives the robot")
PY
cat "$tmp/args.out"; total=$((total + 2))
netns_down

echo "== 5. a fleet: 3 hosts x 5 robots, one rclpy client on a fourth host"
sw="$tag-sw"
netns_up "$sw"
ip -n "$sw" link add br0 type bridge
ip -n "$sw" link set br0 up
for h in 1 2 3 4; do
  netns_up "$tag-h$h"
  ip link add "veth$h$$" netns "$tag-h$h" type veth peer name "port$h" netns "$sw"
  ip -n "$sw" link set "port$h" master br0 up
  ip -n "$tag-h$h" addr add "192.0.2.$h/24" dev "veth$h$$"
  ip -n "$tag-h$h" link set "veth$h$$" up multicast on
  ip -n "$tag-h$h" route add 224.0.0.0/4 dev "veth$h$$" 2>/dev/null || ip -n "$tag-h$h" route replace 224.0.0.0/4 dev "veth$h$$"
done
for h in 1 2 3; do
  skipper_in "$tag-h$h" "fleet$h" --ros2 --ros2-host "192.0.2.$h" --robots 5 --no-log --ros-args -r "__ns:=/host$h"
done
# the client starts once every host serves its robots (a hang guard of 60 s)
for h in 1 2 3; do
  for _ in $(seq 600); do grep -qs "ROS 2: serving 5 robots" "$tmp/fleet$h.log" && break; sleep 0.1; done
  grep -qs "ROS 2: serving 5 robots" "$tmp/fleet$h.log" || fail "host $h serves no robots after 60 s"
done
ROS_AUTOMATIC_DISCOVERY_RANGE=SUBNET rclpy_checks "$tag-h4" fleet fleet 3 5
for h in 1 2 3; do
  grep -q "warning: the ROS 2 node /host$h/skipper discovers peers on the networks of 192.0.2.$h" "$tmp/fleet$h.log" \
    || fail "host $h printed no discovery warning"
done
echo "ok   each host warned that it discovers beyond this machine"; total=$((total + 1))
netns_down

echo "== 6. tutorial 3's advance goal: its controller served over ROS 2 (crates/ros2/examples/ros2_advance.rs)"
advance="${EXAMPLES_DIR:-${CARGO_TARGET_DIR:-$root/target}/release/examples}/ros2_advance"
if [ ! -x "$advance" ]; then
  cargo build --release -q -p skipper-ros2 --example ros2_advance
  advance="${CARGO_TARGET_DIR:-$root/target}/release/examples/ros2_advance"
fi
"$advance" --interfaces "$tmp/if-advance" >"$tmp/if-advance.out" 2>&1 || fail "ros2_advance --interfaces"
bash scripts/ros2/build_pkg.sh tutorial_msgs "$tmp/if-advance/tutorial_msgs" "$venv"
netns_up "$tag-e"
exec 4> >(in_ns "$tag-e" "$advance" >"$tmp/advance.log" 2>&1)
# its clients start once its action servers exist (it says so), as the fleet's do
for _ in $(seq 600); do grep -qs "serves goal kinds" "$tmp/advance.log" && break; sleep 0.1; done
grep -qs "serves goal kinds" "$tmp/advance.log" || fail "ros2_advance serves nothing after 60 s"
py_in "$tag-e" advance-types kinds.py types "$tmp/if-advance.out" /r1/advance=tutorial_msgs/action/Advance
py_in "$tag-e" advance kinds.py advance
exec 4>&-
netns_down

echo "== 7. nav2's NavigateToPose (nav2_msgs built here from Jazzy's definition)"
nav="$tmp/nav2_msgs"
mkdir -p "$nav/action"
cat >"$nav/package.xml" <<'XML'
<?xml version="1.0"?>
<package format="3">
  <name>nav2_msgs</name>
  <version>1.3.0</version>
  <description>Test-only: nav2's NavigateToPose action, with the fields Jazzy's nav2_msgs defines.</description>
  <maintainer email="skipper@example.invalid">Skipper developers</maintainer>
  <license>Apache-2.0</license>
  <buildtool_depend>ament_cmake</buildtool_depend>
  <buildtool_depend>rosidl_default_generators</buildtool_depend>
  <depend>action_msgs</depend>
  <depend>builtin_interfaces</depend>
  <depend>geometry_msgs</depend>
  <exec_depend>rosidl_default_runtime</exec_depend>
  <member_of_group>rosidl_interface_packages</member_of_group>
  <export><build_type>ament_cmake</build_type></export>
</package>
XML
cat >"$nav/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(nav2_msgs C CXX)
find_package(ament_cmake REQUIRED)
find_package(rosidl_default_generators REQUIRED)
find_package(builtin_interfaces REQUIRED)
find_package(geometry_msgs REQUIRED)
rosidl_generate_interfaces(${PROJECT_NAME} "action/NavigateToPose.action"
  DEPENDENCIES builtin_interfaces geometry_msgs)
ament_export_dependencies(rosidl_default_runtime)
ament_package()
CMAKE
cat >"$nav/action/NavigateToPose.action" <<'ACTION'
# goal: where to go, and the behavior tree to navigate with (empty: the default)
geometry_msgs/PoseStamped pose
string behavior_tree
---
# result: an error code (NONE is the one Jazzy defines) and a message
uint16 NONE=0
uint16 error_code
string error_msg
---
# feedback
geometry_msgs/PoseStamped current_pose
builtin_interfaces/Duration navigation_time
builtin_interfaces/Duration estimated_time_remaining
int16 number_of_recoveries
float32 distance_remaining
ACTION
bash scripts/ros2/build_pkg.sh nav2_msgs "$nav" "$venv"
netns_up "$tag-f"
skipper_in "$tag-f" nav2 --ros2 --no-log
py_in "$tag-f" nav2 nav2.py
netns_down
echo "ROS 2: $total passed, 0 failed"
