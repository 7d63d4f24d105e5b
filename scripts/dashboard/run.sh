#!/usr/bin/env bash
# The dashboard in a real browser (Debian's chromium, headless, driven by playwright-core):
#   1. a run with --serve: the robot moves; pause, step and speed work; a click on the map
#      sends a goto and the robot heads there; estop stops it;
#   2. a run of 100 robots with --serve: the page keeps updating;
#   3. a replay of the first run: the slider moves the robot, Play plays;
#   4. the report of the first run, as a picture, and a fleet's report (200 robots for a
#      simulated minute): the map first, every line in its legend or labelled, at most one
#      plot of robots' lines per section, the robots table linking each robot's section;
#   5. the behavior view: an XABSL run (activation path, times written in place, hostile
#      text escaped), a mission run and its replay (the stack with item names and states,
#      channel winners, places on the map, a suspended substack, the whole run's trail, the
#      AUV panel), the SPS link view in the replay of a small agent's run
#      over `skipper link serve`, a Soar run when the Soar bridge is installed, and the
#      action goals of an XABSL run with --ros (a run_option goal sent with `skipper action
#      send`, a goto from the map) when roscore is installed.
# Screenshots go next to the run log, in runs/dashboard/ (or $DASHBOARD_OUT). Every process
# started here is stopped on the way out, whatever happens.
set -euo pipefail
# the Python peers' output is read while they run: unbuffered whatever the environment
# says (see scripts/ros/run.sh: rostopic hz's lines sat in its buffer without it)
export PYTHONUNBUFFERED=1
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${SKIPPER_BIN:-$root/target/release/skipper}"
out="${DASHBOARD_OUT:-$root/runs/dashboard}"
mkdir -p "$out"
rm -f "$out"/*.png

if [ ! -x /usr/bin/chromium ] || [ ! -f "$here/node_modules/playwright-core/package.json" ]; then
  echo "the browser test needs scripts/dashboard/install.sh first" >&2
  exit 1
fi

pids=()
cleanup() {
  for p in "${pids[@]}"; do
    kill -INT "$p" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do
    wait "$p" 2>/dev/null || true
  done
}
trap cleanup EXIT

# Start skipper in the background on a free port; sets $url once it says where it serves.
serve() {
  local errlog="$1"
  shift
  # the file exists before the loop reads it, whenever the process gets to open it
  : >"$errlog"
  "$bin" "$@" >"$errlog.out" 2>>"$errlog" &
  pids+=("$!")
  url=""
  for _ in $(seq 1 300); do
    url="$(sed -n 's/^dashboard: //p' "$errlog" | head -n1)"
    [ -n "$url" ] && return 0
    if ! kill -0 "${pids[-1]}" 2>/dev/null; then
      echo "skipper $* stopped before serving:" >&2
      cat "$errlog" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "skipper $* did not start serving" >&2
  return 1
}

# Stop the last process started, with Ctrl-C as a person would.
stop_last() {
  local p="${pids[-1]}"
  kill -INT "$p" 2>/dev/null || true
  local status=0
  wait "$p" || status=$?
  unset 'pids[-1]'
  return "$status"
}

log="$out/dashboard-run.mcap"
rm -f "$log"
echo "--- live run"
serve "$out/run.err" run --world "$root/examples/worlds/office.world" --until 30m \
  --serve 127.0.0.1:0 --log "$log"
echo "serving $url"
node "$here/browser.mjs" live "$url" "$out"
status=0
stop_last || status=$?
# Ctrl-C ends a run with 130, as shells report SIGINT
[ "$status" -eq 130 ] || { echo "the run ended with status $status" >&2; cat "$out/run.err" >&2; exit 1; }
[ -s "$log" ] || { echo "no run log at $log" >&2; exit 1; }
echo "ok - the run log is $log"

echo "--- 100 robots"
serve "$out/crowd.err" run --world "$root/examples/worlds/office.world" --robots 100 \
  --until 30m --serve 127.0.0.1:0 --no-log
node "$here/browser.mjs" crowd "$url" "$out"
stop_last || true

echo "--- replay"
serve "$out/replay.err" replay "$log" --serve 127.0.0.1:0
node "$here/browser.mjs" replay "$url" "$out"
stop_last

echo "--- report"
"$bin" report "$log" -o "$out/dashboard-run.html"
node "$here/browser.mjs" page "$out/dashboard-run.html" "$out" report.png

echo "--- fleet report"
flog="$out/fleet-run.mcap"
rm -f "$flog"
"$bin" run --world "$root/examples/worlds/office.world" --robots 200 --until 1m --log "$flog" \
  >"$out/fleet-run.out"
"$bin" report "$flog" -o "$out/fleet-run.html"
node "$here/browser.mjs" fleet-report "$out/fleet-run.html" "$out"

echo "--- behavior view: XABSL"
serve "$out/xabsl.err" run "$root/examples/xabsl/turn_and_release/agents.xabsl" \
  --world "$root/examples/xabsl/turn_and_release/field.world" --speed 0.5 --until 30m \
  --serve 127.0.0.1:0 --no-log
node "$here/browser.mjs" xabsl "$url" "$out"
stop_last || true

echo "--- behavior view: mission"
serve "$out/mission.err" run "$root/examples/missions/test_mission.lua" --speed 200 --until 4h \
  --serve 127.0.0.1:0 --no-log
node "$here/browser.mjs" mission "$url" "$out"
stop_last || true
# the replay is of the whole mission (simulated time: a few seconds), at a time its WHILE
# substack is suspended (the AUV at the surface), found in the log with Python's mcap reader
mlog="$out/mission-run.mcap"
rm -f "$mlog"
"$bin" run "$root/examples/missions/test_mission.lua" --log "$mlog" >"$out/mission-full.out"
suspended="$("${PYTHON:-python3}" - "$mlog" <<'PY'
import json, sys
from mcap.reader import make_reader
with open(sys.argv[1], "rb") as f:
    for _, _, m in make_reader(f).iter_messages(topics=["/controller"]):
        d = json.loads(m.data)
        items = d["state"].get("items", [])
        ids = [i["id"] for i in items]
        if any(i["state"] == "suspended" and any(c.startswith(i["id"] + "/") for c in ids) for i in items):
            print(round(d["t"] + 1, 1))
            break
PY
)"
[ -n "$suspended" ] || { echo "the mission's log has no suspended substack" >&2; exit 1; }
serve "$out/mission-replay.err" replay "$mlog" --serve 127.0.0.1:0
node "$here/browser.mjs" mission-replay "$url" "$out" "$suspended"
stop_last

echo "--- behavior view: SPS link (a small agent over skipper link serve, then the replay)"
llog="$out/link-run.mcap"
rm -f "$llog"
: >"$out/link.out"
"$bin" link serve --listen 127.0.0.1:0 --world "$root/examples/worlds/soar-tour.world" --until 5m \
  --log "$llog" >>"$out/link.out" 2>"$out/link.err" &
pids+=("$!")
addr=""
for _ in $(seq 1 100); do
  addr="$(sed -n 's/.*listening on \([0-9.:]*\).*/\1/p' "$out/link.out" | head -n1)"
  [ -n "$addr" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { echo "skipper link serve did not start" >&2; cat "$out/link.err" >&2; exit 1; }
node "$here/link_agent.mjs" "$addr" 120
# the run ends when its agent halts
stop_last
[ -s "$llog" ] || { echo "no run log at $llog" >&2; exit 1; }
serve "$out/link-replay.err" replay "$llog" --serve 127.0.0.1:0
node "$here/browser.mjs" link-replay "$url" "$out"
stop_last

soar_venv="${XDG_DATA_HOME:-$HOME/.local/share}/skipper/soar-venv/bin/python"
if [ -x "$soar_venv" ]; then
  echo "--- behavior view: Soar"
  serve "$out/soar.err" run --soar "$root/examples/soar/waypoint-tour.soar" \
    --world "$root/examples/worlds/soar-tour.world" --until 30m --serve 127.0.0.1:0 --no-log
  node "$here/browser.mjs" soar "$url" "$out"
  stop_last || true
else
  echo "skip - the Soar run: the Soar bridge is not installed (bridges/soar/install.sh)"
fi

if command -v roscore >/dev/null 2>&1; then
  echo "--- behavior view: action goals of a --ros run"
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  export ROS_MASTER_URI="http://127.0.0.1:$port" ROS_IP=127.0.0.1 ROS_HOME="$out/ros-home"
  roscore -p "$port" >"$out/roscore.log" 2>&1 &
  pids+=("$!")
  up=""
  for _ in $(seq 1 100); do
    if python3 -c "import xmlrpc.client as x; x.ServerProxy('$ROS_MASTER_URI').getUri('/probe')" 2>/dev/null; then
      up=1
      break
    fi
    sleep 0.1
  done
  [ -n "$up" ] || { echo "roscore did not start" >&2; cat "$out/roscore.log" >&2; exit 1; }
  serve "$out/ros.err" run "$root/examples/xabsl/goals/agents.xabsl" --ros --serve 127.0.0.1:0 \
    --until 30m --no-log
  "$bin" action send /robot1/run_option option=turn_to parameters='{"yaw": 2.0, "direction": "left"}' \
    --wait 20s --timeout 60s >"$out/ros-send.log" 2>&1 || { cat "$out/ros-send.log" >&2; exit 1; }
  node "$here/browser.mjs" ros "$url" "$out"
  stop_last || true
  stop_last || true # roscore
else
  echo "skip - the --ros run: roscore is not installed (scripts/ros/install.sh)"
fi

ls -1 "$out"/*.png
echo "dashboard browser test: all checks passed"
