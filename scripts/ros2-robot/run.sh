#!/usr/bin/env bash
# A ROS 2 robot that is not Skipper, driven by Skipper: scripts/ros2-robot/robot.py
# (rclpy, Jazzy wheels in .venv-ros2 from scripts/ros2/install.sh) is a differential-drive
# model publishing odom, scan (241 beams over 240 degrees, the laser 0.15 m ahead, placed
# on /tf_static) and integrating cmd_vel; `skipper run --vehicle ros2:/bot` drives it.
# Every DDS process runs in a network namespace made here with only loopback up
# (scripts/ros2/netns.sh); the trap stops every process and removes every namespace.
#  1. an XABSL agent reaches its target state; an agent reading a signal the robot lacks
#     (sonar.3) is refused at load with file:line:col;
#  2. --ros2 serves the robot again: an rclpy ActionClient's goto goal succeeds at the
#     robot's true position, and the robot's own geometry (laser place, beams, angles)
#     is what /tf_static and the served scan say;
#  3. the robot stops publishing: the commands stop within the bound (stale=0.5s), the
#     run ends with a clear message after give_up;
#  4. Ctrl-C and SIGTERM leave a zero cmd_vel as the robot's last command;
#  5. Skipper drives Skipper: an agent driving `skipper run --ros2`'s simulated robot
#     ends where the same agent run on the simulator ends;
#  6. bad input (NaN odometry, a short scan) is counted and skipped; a robot that never
#     appears is a clear error;
#  7. the wander demo avoids the walls the robot's scan reports;
#  8. two robots in one run (one TwistStamped, its laser upside down and behind), one
#     controller each;
#  9. each vehicle publishes its own geometry with --ros2: the simulated P3-DX (laser,
#     sonar ring) and a P2OS P3-AT (`skipper sim serve --model p3at` driven by
#     `--vehicle p2os://`: the P3-AT's sonar ring from the subtype it reports); the ROS
#     robot's own is checked in 2.
# ONLY="5 8" runs those checks alone.
# No timing is asserted beyond the safety bound of 3 (with a second of slack for a
# loaded machine); every wait is for a state, with a generous hang guard.
set -euo pipefail
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")/../.."
root="$PWD"
: "${SKIPPER_BIN:=${CARGO_TARGET_DIR:-$root/target}/release/skipper}"
venv="${ROS2_VENV:-$root/.venv-ros2}"
py="$venv/bin/python"
[ -x "$py" ] || { echo "no ROS 2 venv: run scripts/ros2/install.sh" >&2; exit 1; }
runlog_py="${PYTHON:-$root/.venv/bin/python}"
source scripts/ros2/netns.sh
tmp="$(mktemp -d)"
tag="skrb$$"
cleanup() { netns_down; rm -rf "$tmp"; }
trap cleanup EXIT
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST RMW_IMPLEMENTATION=rmw_fastrtps_cpp
here=scripts/ros2-robot
agents=$here/agents
passed=0
fail() {
  echo "FAIL $*"
  for f in "$tmp"/*.out "$tmp"/*.err; do [ -f "$f" ] && { echo "--- $f"; tail -15 "$f"; }; done
  exit 1
}
ok() { passed=$((passed + 1)); echo "ok   $*"; }
verdict() { "$py" $here/verdict.py "$@" || fail "$*"; passed=$((passed + 1)); }
robot() {  # NS LOG ARGS...: the rclpy robot in namespace NS, in the background
  local ns="$1" log="$2"; shift 2
  in_ns "$ns" "$py" $here/robot.py --log "$tmp/$log.jsonl" "$@" >"$tmp/$log.out" 2>&1 &
  wait_text "robot up" "$tmp/$log.out"
}
wait_text() {  # TEXT FILE: until FILE says TEXT (a hang guard of 60 s)
  for _ in $(seq 600); do grep -qsF "$1" "$2" && return 0; sleep 0.1; done
  fail "no '$1' in $2 after 60 s"
}
# (skipper runs put in the background are started with `ip netns exec` itself, which
# becomes the skipper process, so that $! is what a signal must reach)
want() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }
skipper() {  # NS LOG ARGS...: skipper run in namespace NS, in the foreground; its status
  local ns="$1" log="$2"; shift 2
  local rc=0
  in_ns "$ns" timeout 300 "$SKIPPER_BIN" run "$@" >"$tmp/$log.out" 2>"$tmp/$log.err" || rc=$?
  echo "$rc"
}

if want 1; then
echo "== 1. an XABSL agent"
netns_up "$tag-2"
robot "$tag-2" reach --ns /bot
rc=$(skipper "$tag-2" reach $agents/reach.xabsl --vehicle ros2:/bot --no-log --summary-json "$tmp/reach.json")
[ "$rc" = 0 ] && grep -q '"outcome": "finished"' "$tmp/reach.json" || fail "reach: exit $rc $(cat "$tmp/reach.json" 2>/dev/null)"
ok "the agent reached its target state (outcome finished, exit 0)"
verdict reached "$tmp/reach.jsonl" 1.0 1.45 1.85
rc=$(skipper "$tag-2" sonar $agents/sonar.xabsl --vehicle ros2:/bot --no-log)
[ "$rc" = 2 ] && grep -Eq "xabsl:[0-9]+:[0-9]+" "$tmp/sonar.err" && grep -q "sonar.3" "$tmp/sonar.err" \
  || fail "an agent reading sonar.3 on a robot without sonars: exit $rc $(cat "$tmp/sonar.err")"
ok "an agent reading sonar.3 is refused at load (exit 2): $(grep -Eo "[a-z_]+\.xabsl:[0-9]+:[0-9]+" "$tmp/sonar.err" | head -1)"
netns_down
fi

if want 2; then
echo "== 2. served again with --ros2: a goto goal from rclpy, the robot's own geometry"
netns_up "$tag-3"
robot "$tag-3" goto --ns /bot
ip netns exec "$tag-3" "$SKIPPER_BIN" run examples/xabsl/goals/agents.xabsl --vehicle ros2:/bot --ros2 --no-log \
  >"$tmp/served.out" 2>"$tmp/served.err" &
served=$!
in_ns "$tag-3" timeout 120 "$py" $here/client.py geometry bot_skipper 241 -120 1 0.15 >"$tmp/geometry.out" 2>&1 \
  || fail "served geometry: $(cat "$tmp/geometry.out")"
cat "$tmp/geometry.out"; passed=$((passed + 1))
in_ns "$tag-3" timeout 180 "$py" $here/client.py goto bot_skipper 1.0 0.5 >"$tmp/goto.out" 2>&1 \
  || fail "goto: $(cat "$tmp/goto.out")"
ok "goto (1.0, 0.5) from an rclpy ActionClient: SUCCEEDED $(tail -1 "$tmp/goto.out")"
# the result is where the robot truly is (its own model's pose, logged every 0.2 s)
read -r gx gy < <("$py" -c 'import json,sys; r=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print(r["x"], r["y"])' "$tmp/goto.out")
sleep 0.5  # the robot's next state line (it logs every 0.2 s)
verdict near "$tmp/goto.jsonl" "$gx" "$gy" 0.1
verdict near "$tmp/goto.jsonl" 1.0 0.5 0.25
kill -INT "$served"; wait "$served" || true
netns_down
fi

if want 3; then
echo "== 3. the robot goes silent: the commands stop within the bound, then the run ends"
netns_up "$tag-4"
robot "$tag-4" silent --ns /bot --silent-after 2
rc=$(skipper "$tag-4" stale $agents/cruise.xabsl --vehicle ros2:/bot,stale=0.5s,give_up=3s --no-log)
[ "$rc" = 1 ] && grep -q "no odometry from the robot on /bot/odom for" "$tmp/stale.err" \
  || fail "a silent robot: exit $rc $(cat "$tmp/stale.err")"
ok "a silent robot ends the run after give_up (exit 1): $(grep -o "no odometry from the robot.*" "$tmp/stale.err" | head -1)"
verdict stopped_after_silence "$tmp/silent.jsonl" 1.5
netns_down
fi

if want 4; then
echo "== 4. Ctrl-C and SIGTERM leave the robot stopped"
netns_up "$tag-5"
for sig in INT TERM; do
  robot "$tag-5" "sig$sig" --ns "/bot$sig"
  ip netns exec "$tag-5" "$SKIPPER_BIN" run $agents/cruise.xabsl --vehicle "ros2:/bot$sig" --no-log \
    >"$tmp/run$sig.out" 2>"$tmp/run$sig.err" &
  pid=$!
  wait_text '"cmd": [0.15, 0.5]' "$tmp/sig$sig.jsonl"
  kill "-$sig" "$pid"
  rc=0; wait "$pid" || rc=$?
  [ "$rc" = 130 ] || [ "$rc" = 143 ] || [ "$rc" = 0 ] || fail "SIG$sig: exit $rc $(cat "$tmp/run$sig.err")"
  sleep 0.5  # anything still on its way to the robot
  verdict last_zero "$tmp/sig$sig.jsonl"
done
netns_down
fi

if want 5; then
echo "== 5. Skipper drives Skipper"
netns_up "$tag-7"
ip netns exec "$tag-7" "$SKIPPER_BIN" run examples/xabsl/goals/agents.xabsl --ros2 --no-log >"$tmp/sim.out" 2>"$tmp/sim.err" &
sim=$!
wait_text "ROS 2: serving 1 robot" "$tmp/sim.err"
rc=$(skipper "$tag-7" driver $agents/reach.xabsl --vehicle ros2:/robot1 --no-log)
[ "$rc" = 0 ] || fail "driving the simulated robot: exit $rc $(cat "$tmp/driver.err")"
grep -q "robot1_skipper is the robot at /robot1: odom, scan 180 beams from -90.0° by 1.00° (laser 0.02 m ahead), 16 range sensors, battery" "$tmp/driver.err" \
  || fail "the simulated robot as found: $(cat "$tmp/driver.err")"
ok "the simulated Pioneer as found over ROS 2: its laser, 16 sonars (from /tf_static) and battery"
in_ns "$tag-7" timeout 60 "$py" $here/client.py odom /robot1/odom >"$tmp/end_driven.out" || fail "odom of the driven robot"
kill -INT "$sim"; wait "$sim" || true
netns_down
"$SKIPPER_BIN" run $agents/reach.xabsl --log "$tmp/direct.mcap" >"$tmp/direct.out" 2>&1 || fail "the agent on the simulator"
"$runlog_py" $here/last_pose.py "$tmp/direct.mcap" robot1 >"$tmp/end_direct.out" || fail "the direct run's log"
"$py" - "$tmp/end_driven.out" "$tmp/end_direct.out" <<'PY' || fail "end states"
import json, math, sys
a, b = (json.loads(open(p).read()) for p in sys.argv[1:3])
d, dyaw = math.hypot(a["x"] - b["x"], a["y"] - b["y"]), abs(a["yaw"] - b["yaw"])
print(f"ok   Skipper driving Skipper ends {d:.3f} m and {dyaw:.3f} rad from the agent run on the simulator (tolerance 0.15 m, 0.15 rad): {a} vs {b}")
sys.exit(0 if d <= 0.15 and dyaw <= 0.15 else 1)
PY
passed=$((passed + 1))
fi

if want 6; then
echo "== 6. bad input and a robot that never appears"
netns_up "$tag-8"
robot "$tag-8" bad --ns /bot --bad
rc=$(skipper "$tag-8" bad $agents/reach.xabsl --vehicle ros2:/bot --no-log --summary-json "$tmp/bad.json")
[ "$rc" = 0 ] || fail "bad input: exit $rc $(cat "$tmp/bad.err")"
"$py" - "$tmp/bad.json" <<'PY' || fail "skipped counts: $(cat "$tmp/bad.json")"
import json, sys
s = json.load(open(sys.argv[1]))["skipped_messages"]
assert s.get("odometry not finite", 0) > 0 and s.get("scan size does not match its angles", 0) > 0, s
print(f"ok   NaN odometry and short scans are counted and skipped: {s}")
PY
passed=$((passed + 1))
verdict reached "$tmp/bad.jsonl" 1.0 1.45 1.85
rc=$(skipper "$tag-8" nobody --vehicle ros2:/nobody,wait=3s --no-log)
[ "$rc" = 1 ] && grep -q "no odometry on /nobody/odom within 3 s" "$tmp/nobody.err" \
  || fail "a robot that never appears: exit $rc $(cat "$tmp/nobody.err")"
ok "a robot that never appears: $(grep -o "no odometry on /nobody/odom within 3 s[^(]*" "$tmp/nobody.err")"
netns_down
fi

if want 7; then
echo "== 7. the wander demo on a robot with a laser"
netns_up "$tag-1"
robot "$tag-1" wander --ns /bot --room 2.0
rc=$(skipper "$tag-1" wander --vehicle ros2:/bot --until 30s --no-log)
[ "$rc" = 0 ] || fail "wander: exit $rc"
grep -q "ROS 2: bot_skipper is the robot at /bot: odom, scan 241 beams from -120.0° by 1.00° (laser 0.15 m ahead); cmd_vel Twist" "$tmp/wander.err" \
  || fail "the robot as found: $(cat "$tmp/wander.err")"
ok "the robot as Skipper found it: 241 beams from -120 deg, the laser 0.15 m ahead (from /tf_static)"
verdict moved "$tmp/wander.jsonl" 2.0
netns_down
fi

if want 8; then
echo "== 8. two robots in one run, one controller each"
netns_up "$tag-6"
robot "$tag-6" bot1 --ns /bot1 --frames bot1/
robot "$tag-6" bot2 --ns /bot2 --frames bot2/ --stamped --beams 360 --fov 359 --mount=-0.1,0,3.14159265,1 --odom-best-effort
rc=$(skipper "$tag-6" fleet $agents/reach.xabsl --vehicle ros2:/bot1 --vehicle ros2:/bot2 --no-log --summary-json "$tmp/fleet.json")
[ "$rc" = 0 ] || fail "two robots: exit $rc"
grep -q "bot2_skipper is the robot at /bot2: odom, scan 360 beams .*; cmd_vel TwistStamped" "$tmp/fleet.err" \
  || fail "the second robot as found: $(cat "$tmp/fleet.err")"
ok "two robots: the second takes TwistStamped (from its reader's type) and its laser is upside down, facing behind"
verdict reached "$tmp/bot1.jsonl" 1.0 1.45 1.85
verdict reached "$tmp/bot2.jsonl" 1.0 1.45 1.85
netns_down
fi

if want 9; then
echo "== 9. each vehicle publishes its own geometry"
netns_up "$tag-9"
ip netns exec "$tag-9" "$SKIPPER_BIN" run examples/xabsl/goals/agents.xabsl --ros2 --no-log >"$tmp/simgeo.out" 2>"$tmp/simgeo.err" &
sim=$!
in_ns "$tag-9" timeout 120 "$py" $here/client.py geometry robot1 180 -90 1.0 0.018 >"$tmp/simgeo.check" 2>&1 \
  || fail "the simulator's geometry: $(cat "$tmp/simgeo.check")"
in_ns "$tag-9" timeout 120 "$py" $here/client.py sonars robot1 16 3 0.166 0.027 >>"$tmp/simgeo.check" 2>&1 \
  || fail "the simulator's sonars: $(cat "$tmp/simgeo.check")"
sed 's/^ok   /ok   the simulated P3-DX /' "$tmp/simgeo.check"; passed=$((passed + 2))
kill -INT "$sim"; wait "$sim" || true
ip netns exec "$tag-9" "$SKIPPER_BIN" sim serve --p2os 127.0.0.1:8101 --model p3at >"$tmp/p3at.out" 2>&1 &
wait_text "(p3at) on" "$tmp/p3at.out"
ip netns exec "$tag-9" "$SKIPPER_BIN" run --vehicle p2os://127.0.0.1:8101 --ros2 --no-log >"$tmp/p2os.out" 2>"$tmp/p2os.err" &
p2os=$!
in_ns "$tag-9" timeout 120 "$py" $here/client.py sonars robot1 16 3 0.245 0.027 >"$tmp/p3at.check" 2>&1 \
  || fail "the P3-AT's sonars: $(cat "$tmp/p3at.check")"
sed 's/^ok   /ok   a P2OS P3-AT: /' "$tmp/p3at.check"; passed=$((passed + 1))
kill -INT "$p2os"; wait "$p2os" || true
netns_down
fi

echo "ROS 2 robots: $passed passed, 0 failed"
