#!/usr/bin/env bash
# A ROS 1 robot that is not Skipper, driven by Skipper: scripts/ros1-robot/robot.py
# (rospy, Debian's ROS 1 from scripts/ros/install.sh) is the differential-drive model of
# scripts/ros2-robot/model.py publishing odom, scan (241 beams over 240 degrees, the laser
# 0.15 m ahead, latched on /tf_static) and integrating cmd_vel; `skipper run --vehicle
# ros1:/bot` drives it through Skipper's own ROS 1 node. On 127.0.0.1, with a roscore of
# its own (scripts/ros/roscore.sh); the trap stops every process.
#  1. an XABSL agent reaches its target state; an agent reading a signal the robot lacks
#     (sonar.3) is refused at load with file:line:col;
#  2. --ros serves the robot again: actionlib's SimpleActionClient's goto goal succeeds at
#     the robot's true position, and /tf_static and the served scan carry its geometry;
#  3. the robot stops publishing: the commands stop within the bound, then the run ends;
#  4. Ctrl-C and SIGTERM leave a zero cmd_vel as the robot's last command;
#  5. Skipper drives Skipper: an agent driving `skipper run --ros`'s simulated robot ends
#     where the same agent run on the simulator ends;
#  6. bad input (NaN odometry, a short scan) is counted and skipped; a robot that never
#     appears is a clear error;
#  7. the wander demo avoids the walls the robot's scan reports;
#  8. two robots in one run, one controller each (the second's laser upside down);
#  9. each vehicle publishes its own geometry with --ros: the simulated P3-DX (laser,
#     sonar ring) and a P2OS P3-AT (`skipper sim serve --model p3at` driven by
#     `--vehicle p2os://`: the P3-AT's sonar ring from the subtype it reports).
# ONLY="5 9" runs those checks alone.
set -euo pipefail
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")/../.."
root="$PWD"
: "${SKIPPER_BIN:=${CARGO_TARGET_DIR:-$root/target}/release/skipper}"
ROS_PY=/usr/bin/python3   # Debian's interpreter: it sees rospy (a venv does not)
runlog_py="${PYTHON:-$root/.venv/bin/python}"
if ! command -v roscore >/dev/null 2>&1; then
  echo "roscore is not installed: run scripts/ros/install.sh" >&2
  exit 1
fi
source scripts/ros/roscore.sh
export ROS_PACKAGE_PATH="$root/interfaces/ros1${ROS_PACKAGE_PATH:+:$ROS_PACKAGE_PATH}"
interfaces/ros1/genpy.sh "$tmp/py" >/dev/null
export PYTHONPATH="$tmp/py${PYTHONPATH:+:$PYTHONPATH}"
here=scripts/ros1-robot
agents=scripts/ros2-robot/agents
verdict_py=scripts/ros2-robot/verdict.py
passed=0
fail() {
  echo "FAIL $*"
  for f in "$tmp"/*.out "$tmp"/*.err; do [ -f "$f" ] && { echo "--- $f"; tail -15 "$f"; }; done
  exit 1
}
ok() { passed=$((passed + 1)); echo "ok   $*"; }
verdict() { $ROS_PY $verdict_py "$@" || fail "$*"; passed=$((passed + 1)); }
wait_text() {  # TEXT FILE: until FILE says TEXT (a hang guard of 60 s)
  for _ in $(seq 600); do grep -qsF "$1" "$2" && return 0; sleep 0.1; done
  fail "no '$1' in $2 after 60 s"
}
robot() {  # LOG ARGS...: the rospy robot, in the background (stopped by the trap)
  local log="$1"; shift
  $ROS_PY $here/robot.py --log "$tmp/$log.jsonl" "$@" >"$tmp/$log.out" 2>&1 &
  pids+=($!)
  robot_pids+=($!)
  wait_text "robot up" "$tmp/$log.out"
}
robot_pids=()
stop_robots() {  # stop the robots of a section (SIGINT; the trap stops any left)
  local p
  for p in "${robot_pids[@]}"; do kill -INT "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  robot_pids=()
}
want() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }
skipper() {  # LOG ARGS...: skipper run in the foreground; its status
  local log="$1"; shift
  local rc=0
  timeout 300 "$SKIPPER_BIN" run "$@" >"$tmp/$log.out" 2>"$tmp/$log.err" || rc=$?
  echo "$rc"
}

if want 1; then
echo "== 1. an XABSL agent"
robot reach --ns /r
rc=$(skipper reach $agents/reach.xabsl --vehicle ros1:/r --no-log --summary-json "$tmp/reach.json")
[ "$rc" = 0 ] && grep -q '"outcome": "finished"' "$tmp/reach.json" || fail "reach: exit $rc"
ok "the agent reached its target state (outcome finished, exit 0)"
verdict reached "$tmp/reach.jsonl" 1.0 1.45 1.85
rc=$(skipper sonar $agents/sonar.xabsl --vehicle ros1:/r --no-log)
[ "$rc" = 2 ] && grep -Eq "xabsl:[0-9]+:[0-9]+" "$tmp/sonar.err" && grep -q "sonar.3" "$tmp/sonar.err" \
  || fail "an agent reading sonar.3 on a robot without sonars: exit $rc $(cat "$tmp/sonar.err")"
ok "an agent reading sonar.3 is refused at load (exit 2)"

stop_robots
fi

if want 2; then
echo "== 2. served again with --ros: a goto goal from actionlib, the robot's own geometry"
robot goto --ns /g
"$SKIPPER_BIN" run examples/xabsl/goals/agents.xabsl --vehicle ros1:/g --ros --no-log >"$tmp/served.out" 2>"$tmp/served.err" &
served=$!
pids+=("$served")
timeout 120 $ROS_PY $here/client.py geometry g_skipper 241 -120 1 0.15 >"$tmp/geometry.out" 2>&1 \
  || fail "served geometry: $(cat "$tmp/geometry.out")"
cat "$tmp/geometry.out"; passed=$((passed + 1))
timeout 180 $ROS_PY $here/client.py goto g_skipper 1.0 0.5 >"$tmp/goto.out" 2>&1 || fail "goto: $(cat "$tmp/goto.out")"
ok "goto (1.0, 0.5) from actionlib's SimpleActionClient: SUCCEEDED $(tail -1 "$tmp/goto.out")"
read -r gx gy < <($ROS_PY -c 'import json,sys; r=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print(r["x"], r["y"])' "$tmp/goto.out")
sleep 0.5  # the robot's next state line (it logs every 0.2 s)
verdict near "$tmp/goto.jsonl" "$gx" "$gy" 0.1
verdict near "$tmp/goto.jsonl" 1.0 0.5 0.25
kill -INT "$served"; wait "$served" || true

stop_robots
fi

if want 3; then
echo "== 3. the robot goes silent: the commands stop within the bound, then the run ends"
robot silent --ns /s --silent-after 2
rc=$(skipper stale $agents/cruise.xabsl --vehicle ros1:/s,stale=0.5s,give_up=3s --no-log)
[ "$rc" = 1 ] && grep -q "no odometry from the robot on /s/odom for" "$tmp/stale.err" \
  || fail "a silent robot: exit $rc $(cat "$tmp/stale.err")"
ok "a silent robot ends the run after give_up (exit 1)"
verdict stopped_after_silence "$tmp/silent.jsonl" 1.5

stop_robots
fi

if want 4; then
echo "== 4. Ctrl-C and SIGTERM leave the robot stopped"
for sig in INT TERM; do
  robot "sig$sig" --ns "/c$sig"
  "$SKIPPER_BIN" run $agents/cruise.xabsl --vehicle "ros1:/c$sig" --no-log >"$tmp/run$sig.out" 2>"$tmp/run$sig.err" &
  pid=$!
  pids+=("$pid")
  wait_text '"cmd": [0.15, 0.5]' "$tmp/sig$sig.jsonl"
  kill "-$sig" "$pid"
  rc=0; wait "$pid" || rc=$?
  [ "$rc" = 130 ] || [ "$rc" = 143 ] || [ "$rc" = 0 ] || fail "SIG$sig: exit $rc $(cat "$tmp/run$sig.err")"
  sleep 0.5  # anything still on its way to the robot
  verdict last_zero "$tmp/sig$sig.jsonl"
done

stop_robots
fi

if want 5; then
echo "== 5. Skipper drives Skipper"
"$SKIPPER_BIN" run examples/xabsl/goals/agents.xabsl --ros --no-log >"$tmp/sim.out" 2>"$tmp/sim.err" &
sim=$!
pids+=("$sim")
wait_text "ROS: node /skipper" "$tmp/sim.err"
rc=$(skipper driver $agents/reach.xabsl --vehicle ros1:/robot1 --no-log)
[ "$rc" = 0 ] || fail "driving the simulated robot: exit $rc $(cat "$tmp/driver.err")"
grep -q "robot1_skipper is the robot at /robot1: odom, scan 180 beams from -90.0° by 1.00° (laser 0.02 m ahead), 16 range sensors, battery" "$tmp/driver.err" \
  || fail "the simulated robot as found: $(cat "$tmp/driver.err")"
ok "the simulated Pioneer as found over ROS 1: its laser, 16 sonars (from /tf_static) and battery"
timeout 60 $ROS_PY $here/client.py odom /robot1/odom >"$tmp/end_driven.out" || fail "odom of the driven robot"
kill -INT "$sim"; wait "$sim" || true
"$SKIPPER_BIN" run $agents/reach.xabsl --log "$tmp/direct.mcap" >"$tmp/direct.out" 2>&1 || fail "the agent on the simulator"
"$runlog_py" scripts/ros2-robot/last_pose.py "$tmp/direct.mcap" robot1 >"$tmp/end_direct.out" || fail "the direct run's log"
$ROS_PY - "$tmp/end_driven.out" "$tmp/end_direct.out" <<'PY' || fail "end states"
import json, math, sys
a, b = (json.loads(open(p).read()) for p in sys.argv[1:3])
d, dyaw = math.hypot(a["x"] - b["x"], a["y"] - b["y"]), abs(a["yaw"] - b["yaw"])
print(f"ok   Skipper driving Skipper ends {d:.3f} m and {dyaw:.3f} rad from the agent run on the simulator (tolerance 0.15 m, 0.15 rad): {a} vs {b}")
sys.exit(0 if d <= 0.15 and dyaw <= 0.15 else 1)
PY
passed=$((passed + 1))

stop_robots
fi

if want 6; then
echo "== 6. bad input and a robot that never appears"
robot bad --ns /b --bad
rc=$(skipper bad $agents/reach.xabsl --vehicle ros1:/b --no-log --summary-json "$tmp/bad.json")
[ "$rc" = 0 ] || fail "bad input: exit $rc $(cat "$tmp/bad.err")"
$ROS_PY - "$tmp/bad.json" <<'PY' || fail "skipped counts: $(cat "$tmp/bad.json")"
import json, sys
s = json.load(open(sys.argv[1]))["skipped_messages"]
assert s.get("odometry not finite", 0) > 0 and s.get("scan size does not match its angles", 0) > 0, s
print(f"ok   NaN odometry and short scans are counted and skipped: {s}")
PY
passed=$((passed + 1))
verdict reached "$tmp/bad.jsonl" 1.0 1.45 1.85
rc=$(skipper nobody --vehicle ros1:/nobody,wait=3s --no-log)
[ "$rc" = 1 ] && grep -q "no odometry on /nobody/odom within 3 s" "$tmp/nobody.err" \
  || fail "a robot that never appears: exit $rc $(cat "$tmp/nobody.err")"
ok "a robot that never appears is a clear error (exit 1)"

stop_robots
fi

if want 7; then
echo "== 7. the wander demo on a robot with a laser"
robot wander --ns /w --room 2.0
rc=$(skipper wander --vehicle ros1:/w --until 30s --no-log)
[ "$rc" = 0 ] || fail "wander: exit $rc"
grep -q "ROS: w_skipper is the robot at /w: odom, scan 241 beams from -120.0° by 1.00° (laser 0.15 m ahead); cmd_vel Twist" "$tmp/wander.err" \
  || fail "the robot as found: $(cat "$tmp/wander.err")"
ok "the robot as Skipper found it: 241 beams from -120 deg, the laser 0.15 m ahead (from /tf_static)"
verdict moved "$tmp/wander.jsonl" 2.0

stop_robots
fi

if want 8; then
echo "== 8. two robots in one run, one controller each"
robot bot1 --ns /bot1 --frames bot1/
robot bot2 --ns /bot2 --frames bot2/ --beams 360 --fov 359 --mount=-0.1,0,3.14159265,1
rc=$(skipper fleet $agents/reach.xabsl --vehicle ros1:/bot1 --vehicle ros1:/bot2 --no-log)
[ "$rc" = 0 ] || fail "two robots: exit $rc"
verdict reached "$tmp/bot1.jsonl" 1.0 1.45 1.85
verdict reached "$tmp/bot2.jsonl" 1.0 1.45 1.85

stop_robots
fi

if want 9; then
echo "== 9. each vehicle publishes its own geometry"
"$SKIPPER_BIN" run examples/xabsl/goals/agents.xabsl --ros --no-log >"$tmp/simgeo.out" 2>"$tmp/simgeo.err" &
sim=$!
pids+=("$sim")
timeout 120 $ROS_PY $here/client.py geometry robot1 180 -90 1.0 0.018 >"$tmp/simgeo.check" 2>&1 \
  || fail "the simulator's geometry: $(cat "$tmp/simgeo.check")"
timeout 120 $ROS_PY $here/client.py sonars robot1 16 3 0.166 0.027 >>"$tmp/simgeo.check" 2>&1 \
  || fail "the simulator's sonars: $(cat "$tmp/simgeo.check")"
sed 's/^ok   /ok   the simulated P3-DX /' "$tmp/simgeo.check"; passed=$((passed + 2))
kill -INT "$sim"; wait "$sim" || true
# a port of its own (0: the system picks), read back from what the server prints
"$SKIPPER_BIN" sim serve --p2os 127.0.0.1:0 --model p3at >"$tmp/p3at.out" 2>&1 &
pids+=($!)
wait_text "(p3at) on" "$tmp/p3at.out"
addr=$(sed -n 's/^robot1 (p3at) on //p' "$tmp/p3at.out" | head -1)
"$SKIPPER_BIN" run --vehicle "p2os://$addr" --ros --no-log >"$tmp/p2os.out" 2>"$tmp/p2os.err" &
p2os=$!
pids+=("$p2os")
timeout 120 $ROS_PY $here/client.py sonars robot1 16 3 0.245 0.027 >"$tmp/p3at.check" 2>&1 \
  || fail "the P3-AT's sonars: $(cat "$tmp/p3at.check")"
sed 's/^ok   /ok   a P2OS P3-AT: /' "$tmp/p3at.check"; passed=$((passed + 1))
kill -INT "$p2os"; wait "$p2os" || true
fi

echo "ROS 1 robots: $passed passed, 0 failed"
