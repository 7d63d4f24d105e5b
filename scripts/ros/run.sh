#!/usr/bin/env bash
# ROS 1 interop: Debian's roscore and Python actionlib against Skipper, on 127.0.0.1.
#  1. the real Python SimpleActionClient / ActionClient against Skipper's servers: the
#     reference's scenarios 1-4, the behaviours observed on real ROS, a bounded stress test;
#  2. Skipper's clients against rospy's SimpleActionServer and ActionServer;
#  3. `skipper run --ros`: a goto goal with `skipper action send`, and `rosnode info`,
#     `rostopic echo` of every topic Skipper's node publishes (echo_topics.py), of a
#     goto goal, its feedback and result, and of move_base's feedback and result;
#     /clock with use_sim_time, /tf with Debian's tf2 listener, the sensors incl. bumpers
#     and gripper (frames.py); move_base (with its feedback) and move_base_simple/goal
#     (navigation.py);
#  4. the Python SimpleActionClient sending run_option goals to an XABSL run and
#     run_mission goals to a mission run (goals.py), a second node named /skipper ending
#     the XABSL run (exit 0, as rospy and roscpp nodes end), the AUV's depth and water with
#     rospy (auv_sensors.py) and `rostopic echo` of the mission run's topics, and
#     `skipper action send` with run_option, and a goto goal to the AUV of the mission run;
#     the AUV's GPS fix and altitude with their types (auv_fix.py) and rostopic echo;
#  5. roslaunch of scripts/ros/launch/fleet.launch (a namespace and a remap), rosbag
#     record + rosbag info, `skipper action send` of tf2_msgs/LookupTransform (a type
#     Skipper is not built with) to a rospy server;
#  6. roscore killed and started again: Skipper registers again.
# Before 1: rosmsg show / rospack find of interfaces/ros1 (skipper_msgs, skipper); in 3
# also rostopic echo of goal feedback and result, /rosout (rosout_check.py) and the
# services (services.py).
# Every check that depends on timing waits for the state it needs (each wait has a
# deadline of 30-120 s, a hang guard, not a measure) or asserts only what the protocol
# guarantees; none sleeps and hopes, none retries. Every process it starts is stopped by
# the trap. Needs scripts/ros/install.sh. EXAMPLES_DIR: where the built examples of
# crates/actionlib are (else a release build of them); SKIPPER_BIN: the binary.
set -euo pipefail
# the Python peers' output is read from files while they run: unbuffered whatever the
# environment says (rostopic hz's lines sat in its buffer when PYTHONUNBUFFERED was unset)
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")/../.."
root="$PWD"
: "${SKIPPER_BIN:=$root/target/release/skipper}"
ROS_PY=/usr/bin/python3   # Debian's interpreter: it sees rospy (a venv does not)
STRESS_SECONDS="${STRESS_SECONDS:-10}"
if ! command -v roscore >/dev/null 2>&1; then
  echo "roscore is not installed: run scripts/ros/install.sh" >&2
  exit 1
fi
# the reference servers and client (crates/actionlib/examples): EXAMPLES_DIR if it holds
# them already (e.g. CI's build), else a release build of them
if [ -n "${EXAMPLES_DIR:-}" ]; then
  examples="$EXAMPLES_DIR"
else
  cargo build --release -q -p skipper-actionlib --examples
  examples="${CARGO_TARGET_DIR:-$root/target}/release/examples"
fi

fail() { echo "FAIL $*"; for f in "$tmp"/*.log; do echo "--- $f"; tail -20 "$f"; done; exit 1; }
checks=0
ok() { checks=$((checks + 1)); echo "ok   $*"; }
# wait_ready TEXT FILE: until a process says TEXT in its log FILE (a hang guard of 60 s:
# under load a Python node takes seconds to start; nothing here is timed)
wait_ready() {
  for _ in $(seq 300); do grep -qsF "$1" "$2" && return 0; sleep 0.2; done
  fail "no '$1' in $2 after 60 s"
}

source scripts/ros/roscore.sh
ok "roscore on $ROS_MASTER_URI"
# the skipper_msgs and skipper packages of the repository, as ROS tools find them, and
# genpy's Python classes of skipper_msgs for rostopic / rosbag (docs/actionlib.md)
export ROS_PACKAGE_PATH="$root/interfaces/ros1${ROS_PACKAGE_PATH:+:$ROS_PACKAGE_PATH}"
interfaces/ros1/genpy.sh "$tmp/py"
export PYTHONPATH="$tmp/py${PYTHONPATH:+:$PYTHONPATH}"
show="$(rosmsg show skipper_msgs/GotoAction 2>&1)" || fail "rosmsg show skipper_msgs/GotoAction: $show"
for want in "skipper_msgs/GotoActionGoal action_goal" "  skipper_msgs/GotoGoal goal" "    float64 tolerance" \
            "  skipper_msgs/GotoFeedback feedback" "    float64 distance"; do
  grep -qxF "$want" <<<"$show" || fail "rosmsg show skipper_msgs/GotoAction lacks '$want': $show"
done
ok "rosmsg show skipper_msgs/GotoAction (ROS_PACKAGE_PATH=interfaces/ros1)"
[ "$(rospack find skipper)" = "$root/interfaces/ros1/skipper" ] || fail "rospack find skipper"
ok "rospack find skipper_msgs, skipper"

echo "== 1. Python actionlib clients against Skipper's servers"
"$examples/reference_servers" >"$tmp/reference_servers.log" 2>&1 &
pids+=($!)
$ROS_PY scripts/ros/clients.py "$STRESS_SECONDS" 2>"$tmp/clients.err" || fail "Python clients against Skipper's servers"

echo "== 2. Skipper's clients against rospy's servers"
$ROS_PY scripts/ros/py_servers.py >"$tmp/py_servers.log" 2>&1 &
pids+=($!)
wait_ready "python servers ready" "$tmp/py_servers.log"
"$examples/reference_client" /py || fail "Skipper's clients against rospy's servers"

source scripts/ros/lua_check.sh

echo "== 3. skipper run --ros"
"$SKIPPER_BIN" run --ros --log "$tmp/run3.mcap" >"$tmp/run.log" 2>&1 &
run3=$!
pids+=($run3)
"$SKIPPER_BIN" action send /robot1/goto x=1 y=0.5 --wait 60s >"$tmp/send.log" 2>&1 || fail "skipper action send"
grep -qzP "feedback:\n  distance: " "$tmp/send.log" || fail "no feedback printed"
grep -q "SUCCEEDED: reached" "$tmp/send.log" || fail "goto did not succeed"
ok "skipper action send /robot1/goto x=1 y=0.5: feedback, SUCCEEDED"
# rostopic echo of the goal, its feedback and its result, with the skipper_msgs classes
# genpy made from interfaces/ros1 (above): each echo is a node with its own name,
# connected before the goal is sent (Skipper may still list the connections of the
# finished `skipper action send`: wait_connection.py looks for the echo's own); the goal
# is published once, by rospy's client (goal_seen.py), once the goal's echo is connected
# to it
for t in goal feedback result; do
  rostopic echo -n 1 /robot1/goto/$t __name:=echo_goto_$t >"$tmp/echo_$t.log" 2>&1 &
  pids+=($!)
  eval "echo_$t=\$!"
done
for t in feedback result; do
  $ROS_PY scripts/ros/wait_connection.py /skipper /robot1/goto/$t /echo_goto_$t || fail "rostopic echo $t did not connect"
done
$ROS_PY scripts/ros/goal_seen.py /robot1/goto -0.5 0.25 /echo_goto_goal 2>"$tmp/goal_seen.log" \
  || fail "rospy's goto goal: $(cat "$tmp/goal_seen.log")"
for t in goal feedback result; do
  eval "p=\$echo_$t"
  wait "$p" || fail "rostopic echo /robot1/goto/$t: $(cat "$tmp/echo_$t.log")"
done
grep -qzP "\ngoal: \n  x: -0.5\n  y: 0.25\n" "$tmp/echo_goal.log" && grep -q "^  id: \"/goal_seen_" "$tmp/echo_goal.log" \
  || fail "goal echo: $(cat "$tmp/echo_goal.log")"
grep -q "^  distance: " "$tmp/echo_feedback.log" || fail "feedback echo: $(cat "$tmp/echo_feedback.log")"
grep -q "^  status: 3$" "$tmp/echo_result.log" && grep -q "^  text: \"reached\"" "$tmp/echo_result.log" || fail "result echo: $(cat "$tmp/echo_result.log")"
ok "rostopic echo /robot1/goto/goal, feedback and result (skipper_msgs classes) of rospy's goal"
info="$(timeout 60 rosnode info /skipper 2>&1)" || fail "rosnode info: $info"
# (a subscription's type shows only while someone publishes it, so those are checked by name)
for want in "/robot1/goto/status [actionlib_msgs/GoalStatusArray]" "/robot1/goto/result [skipper_msgs/GotoActionResult]" \
            "/robot1/pose [geometry_msgs/PoseStamped]" "/robot1/odom [nav_msgs/Odometry]" " * /robot1/goto/goal" \
            " * /robot1/goto/cancel" " * /robot1/cmd_vel" "Pid:"; do
  grep -qF "$want" <<<"$info" || fail "rosnode info lacks $want"
done
ok "rosnode info /skipper lists publications, subscriptions and the pid"
# rostopic echo of every topic the node publishes all the time (the actions' feedback and
# result are echoed with their goals, /rosout by rosout_check.py)
echo_out="$($ROS_PY scripts/ros/echo_topics.py /skipper '.*/(feedback|result)|/rosout' /clock /tf /tf_static \
  /robot1/pose /robot1/odom /robot1/scan /robot1/sonar /robot1/battery /robot1/bumpers /robot1/gripper \
  /robot1/goto/status /robot1/move_base/status 2>&1)" || fail "rostopic echo of Skipper's topics: $echo_out"
ok "${echo_out#ok   }"
echo_pose="$(timeout 60 rostopic echo -n 1 /robot1/pose 2>&1)" || fail "rostopic echo pose: $echo_pose"
grep -q 'frame_id: "robot1/odom"' <<<"$echo_pose" || fail "pose: $echo_pose"
ok "rostopic echo /robot1/pose"
echo_odom="$(timeout 60 rostopic echo -n 1 /robot1/odom 2>&1)" || fail "rostopic echo odom"
grep -q 'child_frame_id: "robot1/base_link"' <<<"$echo_odom" || fail "odom: $echo_odom"
ok "rostopic echo /robot1/odom"
frames_out="$($ROS_PY scripts/ros/frames.py 2>&1)" || fail "frames, time and sensors: $frames_out"
while read -r line; do case "$line" in ok*) checks=$((checks + 1)); echo "$line" ;; esac; done <<<"$frames_out"
rosout_out="$($ROS_PY scripts/ros/rosout_check.py 2>&1)" || fail "/rosout: $rosout_out"
while read -r line; do case "$line" in ok*) checks=$((checks + 1)); echo "$line" ;; esac; done <<<"$rosout_out"
svc_out="$($ROS_PY scripts/ros/services.py 2>&1)" || fail "services: $svc_out"
while read -r line; do case "$line" in ok*) checks=$((checks + 1)); echo "$line" ;; esac; done <<<"$svc_out"
# move_base's feedback and result echoed (rostopic, connected first) while navigation.py's
# client sends its goals
for t in feedback result; do
  rostopic echo -n 1 /robot1/move_base/$t __name:=echo_move_base_$t >"$tmp/echo_mb_$t.log" 2>&1 &
  pids+=($!)
  eval "echo_mb_$t=\$!"
done
for t in feedback result; do
  $ROS_PY scripts/ros/wait_connection.py /skipper /robot1/move_base/$t /echo_move_base_$t \
    || fail "rostopic echo move_base $t did not connect"
done
nav_out="$($ROS_PY scripts/ros/navigation.py 2>&1)" || fail "navigation clients: $nav_out"
while read -r line; do case "$line" in ok*) checks=$((checks + 1)); echo "$line" ;; esac; done <<<"$nav_out"
for t in feedback result; do
  eval "p=\$echo_mb_$t"
  wait "$p" || fail "rostopic echo /robot1/move_base/$t: $(cat "$tmp/echo_mb_$t.log")"
done
grep -qzP "\nfeedback: \n  base_position: \n    header: \n" "$tmp/echo_mb_feedback.log" \
  && grep -q '^      frame_id: "robot1/odom"' "$tmp/echo_mb_feedback.log" || fail "move_base feedback echo: $(cat "$tmp/echo_mb_feedback.log")"
grep -q "^  status: [0-9]" "$tmp/echo_mb_result.log" || fail "move_base result echo: $(cat "$tmp/echo_mb_result.log")"
ok "rostopic echo /robot1/move_base/feedback (base_position in robot1/odom) and /robot1/move_base/result"
echo_scan="$(timeout 60 rostopic echo -n 1 /robot1/scan/header 2>&1)" || fail "rostopic echo scan: $echo_scan"
grep -q 'frame_id: "robot1/laser"' <<<"$echo_scan" || fail "scan: $echo_scan"
ok "rostopic echo /robot1/scan/header"
echo_status="$(timeout 60 rostopic echo -n 1 /robot1/goto/status 2>&1)" || fail "rostopic echo status"
grep -q 'status_list:' <<<"$echo_status" || fail "status: $echo_status"
ok "rostopic echo /robot1/goto/status (latched)"
# rostopic hz prints a rate once a second after its first messages, for as long as it
# runs: it runs until it has printed one (the rate itself is not checked: it is timing)
rostopic hz -w 5 /robot1/goto/status >"$tmp/hz.log" 2>&1 &
hz_pid=$!
pids+=($hz_pid)
wait_ready "average rate" "$tmp/hz.log"
kill -INT "$hz_pid" 2>/dev/null || true
wait "$hz_pid" 2>/dev/null || true
ok "rostopic hz /robot1/goto/status: $(grep -m1 "average rate" "$tmp/hz.log")"
# rostopic pub until the odometry shows the command obeyed (then stopped below)
rostopic pub -r 10 /robot1/cmd_vel geometry_msgs/Twist '{linear: {x: 0.3}, angular: {z: 0.2}}' >/dev/null 2>&1 &
pub_pid=$!
pids+=($pub_pid)
# wait (up to 20 s) for odometry that goes at the commanded 0.3 m/s
$ROS_PY - <<'PY' || fail "cmd_vel not obeyed"
import sys, time, rospy
from nav_msgs.msg import Odometry
rospy.init_node("skipper_cmd_vel_check")
end = time.monotonic() + 20
while time.monotonic() < end:
    if abs(rospy.wait_for_message("/robot1/odom", Odometry, 20).twist.twist.linear.x - 0.3) < 1e-6:
        sys.exit(0)
sys.exit(1)
PY
ok "rostopic pub /robot1/cmd_vel drives the robot"
kill -INT "$pub_pid" 2>/dev/null || true
wait "$pub_pid" 2>/dev/null || true
# rosnode kill ends the run as rospy's nodes end: exit status 0, the run log closed
timeout 60 rosnode kill /skipper >"$tmp/rosnode_kill.log" 2>&1 || fail "rosnode kill /skipper"
rc=0; wait "$run3" || rc=$?
[ "$rc" = 0 ] || fail "skipper run ended with $rc after rosnode kill"
$ROS_PY -c 'import sys; d = open(sys.argv[1], "rb").read(); sys.exit(0 if d.endswith(b"\x89MCAP0\r\n") else 1)' \
  "$tmp/run3.mcap" || fail "the run log was not closed after rosnode kill"
ok "rosnode kill /skipper: the run ended with exit 0 and a closed log"

echo "== 4. run_option and run_mission with the Python SimpleActionClient"
"$SKIPPER_BIN" run examples/xabsl/goals/agents.xabsl --ros --no-log --speed 4 >"$tmp/run_xabsl.log" 2>&1 &
pids+=($!)
$ROS_PY scripts/ros/goals.py option 2>"$tmp/goals_option.err" || fail "run_option with the Python client"
"$SKIPPER_BIN" action send /robot1/run_option option=turn_to parameters='{"yaw": -2.0, "direction": "right"}' \
  --wait 60s --timeout 60s >"$tmp/send_option.log" 2>&1 || fail "skipper action send run_option"
grep -qF 'SUCCEEDED: option `turn_to` reached a target state' "$tmp/send_option.log" || fail "run_option did not succeed"
ok "skipper action send /robot1/run_option option=turn_to parameters='{...}': SUCCEEDED"
# another node taking the name /skipper ends the run as it ends a rospy or roscpp node:
# the master tells the old node to shut down; the run stops its robots and exits 0
xabsl_run="${pids[-1]}"
$ROS_PY - >"$tmp/name_clash.log" 2>&1 <<'PY' &
import rospy
rospy.init_node("skipper")
rospy.spin()
PY
pids+=($!)
for _ in $(seq 600); do kill -0 "$xabsl_run" 2>/dev/null || break; sleep 0.1; done
kill -0 "$xabsl_run" 2>/dev/null && fail "skipper run went on after another node took the name /skipper"
rc=0; wait "$xabsl_run" || rc=$?
[ "$rc" = 0 ] || fail "skipper run ended with $rc after another node took its name"
why="$(grep -m1 "^ROS: .*; ending the run" "$tmp/run_xabsl.log")" || fail "the run did not say why it ended"
kill -INT "${pids[-1]}" 2>/dev/null || true
wait "${pids[-1]}" 2>/dev/null || true
ok "a second node named /skipper: the run ended with exit 0 ($why)"
mkdir -p "$tmp/missions"
cp examples/missions/workSite.cfg "$tmp/missions/"
printf '%s\n' 'NAME = "Short"' 'STACK = {' '    { ID = "Pause";' \
  '      { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.MINUTE(1)) };' '    };' '}' \
  >"$tmp/missions/short.lua"
printf '%s\n' 'NAME = "Bad"' 'STACK = {' '    { COMMAND = Guidance.Teleport };' '}' >"$tmp/missions/bad.lua"
printf '%s\n' 'NAME = "Dive"' 'STACK = {' \
  '    BEHAVIOR(Guidance.ReadSensor):SET(Guidance.ReadSensor.URI, UniversalURI.SEA_WATER_TEMPERATURE);' \
  '    BEHAVIOR(Guidance.ReadSensor):SET(Guidance.ReadSensor.URI, UniversalURI.SEA_WATER_SALINITY);' \
  '    { COMMAND = Guidance.Pitch,' \
  '      Guidance.Pitch.DEPTH:SET(Units.METER(30)),' \
  '      Guidance.Pitch.SPEED:SET(Units.METER_PER_SECOND, 1) };' \
  '    { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.HOUR(2)) };' '}' >"$tmp/missions/dive.lua"
"$SKIPPER_BIN" run "$tmp/missions/dive.lua" --ros --no-log --speed 30 >"$tmp/run_mission.log" 2>&1 &
pids+=($!)
# the AUV's sensors while dive.lua dives and samples the water (rospy), and rostopic echo
# of every topic the mission run publishes all the time (a GPS fix comes only at the
# surface, and this mission does not ask for one; the altitude only within the
# altimeter's range of the sea floor, far below this dive: both are checked below, with
# a run made for them; the AUV has no fixed frames, so /tf_static latches an empty list)
auv_out="$($ROS_PY scripts/ros/auv_sensors.py 2>&1)" || fail "the AUV's sensors: $auv_out"
ok "${auv_out#ok   }"
echo_out="$($ROS_PY scripts/ros/echo_topics.py /skipper '.*/(feedback|result)|/rosout|/tethys/(gps/fix|altitude)' \
  /clock /tf /tf_static /tethys/pose /tethys/odom /tethys/depth /tethys/water /tethys/run_mission/status \
  /tethys/goto/status 2>&1)" || fail "rostopic echo of the mission run's topics: $echo_out"
ok "${echo_out#ok   }"
$ROS_PY scripts/ros/goals.py mission "$tmp/missions" 2>"$tmp/goals_mission.err" || fail "run_mission with the Python client"
# the AUV's goto: it heads for the point at its depth and succeeds within its default
# tolerance (10 m); the result is where it ended up
"$SKIPPER_BIN" action send /tethys/goto x=60 y=40 --wait 60s --timeout 120s >"$tmp/send_auv_goto.log" 2>&1 \
  || fail "skipper action send /tethys/goto"
grep -qzP "\nfeedback:\n  distance: " "$tmp/send_auv_goto.log" || fail "AUV goto sent no feedback"
grep -q '^SUCCEEDED' "$tmp/send_auv_goto.log" || fail "AUV goto did not succeed"
$ROS_PY - "$tmp/send_auv_goto.log" <<'PY' || fail "AUV goto ended outside its tolerance"
import re, sys
x, y = map(float, re.search(r"^result:\n  x: (\S+)\n  y: (\S+)", open(sys.argv[1]).read(), re.M).groups())
sys.exit(0 if ((x - 60) ** 2 + (y - 40) ** 2) ** 0.5 <= 10 else 1)
PY
ok "skipper action send /tethys/goto x=60 y=40: feedback, SUCCEEDED within 10 m"
kill -INT "${pids[-1]}" 2>/dev/null || true
wait "${pids[-1]}" 2>/dev/null || true
# the AUV's GPS fix and altitude with their types (auv_fix.py): a run at the surface in a
# worksite whose altimeter reaches the floor (260 m below) from there, and a run_mission
# goal, sent once the check's subscriber is connected, that asks for a fix; then rostopic
# echo of its altitude
mkdir -p "$tmp/fix"
{ cat examples/missions/workSite.cfg; echo 'altimeterRange = 500 meter;'; } >"$tmp/fix/workSite.cfg"
printf '%s\n' 'NAME = "Idle"' 'STACK = {' \
  '    { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.HOUR(2)) };' '}' >"$tmp/fix/idle.lua"
printf '%s\n' 'NAME = "Fix"' 'STACK = {' \
  '    { COMMAND = Guidance.ReadSensor,' \
  '      Guidance.ReadSensor.URI:SET(UniversalURI.PLATFORM_LOCATION_FIX) };' \
  '    { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.HOUR(2)) };' '}' >"$tmp/fix/fix.lua"
"$SKIPPER_BIN" run "$tmp/fix/idle.lua" --ros --no-log --speed 30 >"$tmp/run_fix.log" 2>&1 &
pids+=($!)
fix_out="$($ROS_PY scripts/ros/auv_fix.py "$tmp/fix" 2>&1)" || fail "the AUV's GPS fix and altitude: $fix_out"
ok "${fix_out#ok   }"
echo_out="$($ROS_PY scripts/ros/echo_topics.py /skipper '.*/(feedback|result)|/rosout|/tethys/(gps/fix|water)' \
  /tethys/altitude /tethys/gps/fix /tethys/depth /tf_static 2>&1)" || fail "rostopic echo of the fix run's topics: $echo_out"
ok "${echo_out#ok   }"
kill -INT "${pids[-1]}" 2>/dev/null || true
wait "${pids[-1]}" 2>/dev/null || true
echo "== 5. roslaunch with a namespace and a remap, rosbag, an action type Skipper was not built with"
# roslaunch starts the node from the package `skipper` (interfaces/ros1/skipper), in
# the namespace /fleet, with robot1/goto remapped to robot1/drive
SKIPPER_BIN="$SKIPPER_BIN" roslaunch --wait scripts/ros/launch/fleet.launch >"$tmp/roslaunch.log" 2>&1 &
launch=$!
pids+=($launch)
"$SKIPPER_BIN" action send /fleet/robot1/drive x=0.5 y=0 --wait 60s >"$tmp/send_fleet.log" 2>&1 \
  || fail "skipper action send /fleet/robot1/drive: $(cat "$tmp/send_fleet.log")"
grep -q "SUCCEEDED: reached" "$tmp/send_fleet.log" || fail "the remapped goto did not succeed"
ok "roslaunch fleet.launch: /fleet/robot1/drive (namespace and remap) SUCCEEDED"
timeout 60 rosnode list >"$tmp/nodes.log" 2>&1 || fail "rosnode list"
grep -qx "/fleet/exec" "$tmp/nodes.log" || fail "rosnode list lacks /fleet/exec: $(cat "$tmp/nodes.log")"
ok "rosnode list: /fleet/exec"
# rosbag record: one message of each topic, then it ends by itself (-l 1); it is connected
# to feedback and result before the goal is sent (pose comes every cycle)
rosbag record -l 1 -O "$tmp/run.bag" /fleet/robot1/pose /fleet/robot1/drive/feedback /fleet/robot1/drive/result \
  __name:=bag_fleet >"$tmp/rosbag.log" 2>&1 &
bag=$!
pids+=($bag)
for t in /fleet/robot1/drive/feedback /fleet/robot1/drive/result; do
  $ROS_PY scripts/ros/wait_connection.py /fleet/exec "$t" /bag_fleet || fail "rosbag record did not connect to $t"
done
"$SKIPPER_BIN" action send /fleet/robot1/drive x=0 y=0 --wait 60s >"$tmp/send_fleet2.log" 2>&1 \
  || fail "skipper action send /fleet/robot1/drive (home)"
wait $bag || fail "rosbag record: $(cat "$tmp/rosbag.log")"
info="$(rosbag info "$tmp/run.bag" 2>&1)" || fail "rosbag info: $info"
for want in "/fleet/robot1/pose * 1 msg * : geometry_msgs/PoseStamped" \
            "/fleet/robot1/drive/feedback * 1 msg * : skipper_msgs/GotoActionFeedback" \
            "/fleet/robot1/drive/result * 1 msg * : skipper_msgs/GotoActionResult"; do
  grep -qE "${want// \* / +}" <<<"$info" || fail "rosbag info lacks $want: $info"
done
ok "rosbag record + rosbag info: pose, feedback and result of the run, with their types"
timeout 60 rosnode kill /fleet/exec >/dev/null 2>&1 || fail "rosnode kill /fleet/exec"
rc=0; wait $launch || rc=$?
[ "$rc" = 0 ] || fail "roslaunch ended with $rc after its required node ended"
ok "rosnode kill /fleet/exec: the required node ended and roslaunch with it"
# tf2_msgs/LookupTransform: Skipper reads its definition from /usr/share/tf2_msgs
$ROS_PY scripts/ros/py_lookup_server.py >"$tmp/py_lookup.log" 2>&1 &
pids+=($!)
"$SKIPPER_BIN" action send /py/lookup_transform target_frame=map source_frame=robot1/base_link \
  source_time='{secs: 12, nsecs: 5}' --wait 60s >"$tmp/send_lookup.log" 2>&1 \
  || fail "skipper action send /py/lookup_transform: $(cat "$tmp/send_lookup.log")"
for want in "SUCCEEDED: looked up" '      frame_id: "map"' '    child_frame_id: "robot1/base_link"' \
            "        x: 1.5" "        y: -2.0" "        secs: 12"; do
  grep -qF -- "$want" "$tmp/send_lookup.log" || fail "lookup_transform lacks '$want': $(cat "$tmp/send_lookup.log")"
done
ok "skipper action send of tf2_msgs/LookupTransform (not built in) to rospy's server: SUCCEEDED, result printed"
echo "== 6. roscore killed and started again: Skipper registers again"
"$SKIPPER_BIN" run --ros --no-log >"$tmp/run6.log" 2>&1 &
run6=$!
pids+=($run6)
wait_registered() {  # until the master at $ROS_MASTER_URI lists /skipper publishing /robot1/pose
  $ROS_PY - <<'PY'
import os, sys, time, xmlrpc.client
m = xmlrpc.client.ServerProxy(os.environ["ROS_MASTER_URI"])
end = time.monotonic() + 60   # a hang guard
while time.monotonic() < end:
    try:
        pubs, _, _ = m.getSystemState("/check")[2]
        if any(t == "/robot1/pose" and "/skipper" in nodes for t, nodes in pubs):
            sys.exit(0)
    except OSError:
        pass
    time.sleep(0.1)
sys.exit(1)
PY
}
wait_registered || fail "skipper run --ros did not register"
kill -INT "${pids[0]}"   # roscore (master and rosout)
wait "${pids[0]}" 2>/dev/null || true
roscore -p "$port" >"$tmp/roscore2.log" 2>&1 &
pids+=($!)
wait_registered || fail "Skipper did not register with the restarted master: $(tail -5 "$tmp/run6.log")"
# the warning is logged once every registration is done: the master may list the pose
# before it is written, so wait for it (up to 20 s)
wait_ready "is back (pid" "$tmp/run6.log"
echo_after="$(timeout 60 rostopic echo -n 1 /robot1/pose 2>&1)" || fail "rostopic echo after the restart: $echo_after"
grep -q 'frame_id: "robot1/odom"' <<<"$echo_after" || fail "pose after the restart: $echo_after"
ok "roscore restarted on its port: Skipper registered again; rostopic echo /robot1/pose (a new node) receives it"
echo "$checks passed, 0 failed"
