#!/usr/bin/env bash
# Real Soar agents (the soar-sml kernel) through the bridge against the simulator: the
# bridge is installed with its documented command, then each example agent runs until it
# halts, and its run log is checked (goals reached, commands and statuses, speech).
set -euo pipefail
# the Python peers' output is read while they run: unbuffered whatever the environment
# says (see scripts/ros/run.sh: rostopic hz's lines sat in its buffer without it)
export PYTHONUNBUFFERED=1
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
: "${SKIPPER_BIN:=$root/target/release/skipper}"
: "${PYTHON:=python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# the documented install command, into a scratch data directory where `skipper run
# --soar` looks for it
export XDG_DATA_HOME="$work/xdg"
# the bridge command is linked into a scratch bin folder, not the user's ~/.local/bin
export XDG_BIN_HOME="$work/bin"
unset SKIPPER_SOAR_PYTHON
PYTHON3="$PYTHON" bash "$root/bridges/soar/install.sh"

cd "$root"
"$SKIPPER_BIN" run --soar examples/soar/waypoint-tour.soar --world examples/worlds/soar-tour.world \
  --until 5m --log "$work/tour.mcap" --summary-json "$work/tour.json" >/dev/null
"$PYTHON" "$here/check_soar_run.py" "$work/tour.mcap" "$work/tour.json" \
  --goal robot1:4,0 --goal robot1:4,3 --goal robot1:0,3 --goal robot1:0,0 \
  --status robot1:configure:complete --status robot1:add-waypoint:accepted --status robot1:add-waypoint:complete \
  --status robot1:set-velocity:accepted --status robot1:set-velocity:executing --status robot1:set-velocity:complete \
  --status robot1:send-message:complete --status robot1:stop:accepted --status robot1:stop:complete \
  --speech "robot1:reached a" --speech "robot1:reached home" --speech "robot1:tour complete"

"$SKIPPER_BIN" run --soar examples/soar/dispatcher.soar --soar examples/soar/patrol.soar \
  --world examples/worlds/soar-patrol.world \
  --until 5m --log "$work/patrol.mcap" --summary-json "$work/patrol.json" >/dev/null
"$PYTHON" "$here/check_soar_run.py" "$work/patrol.mcap" "$work/patrol.json" \
  --goal robot2:3,2 --goal robot2:3,-2 --goal robot2:0,0 \
  --status robot1:send-message:complete --status robot1:remove-message:complete \
  --status robot2:add-waypoint:complete --status robot2:remove-message:complete \
  --status robot2:send-message:complete --status robot2:set-velocity:executing \
  --speech "robot1:patrol complete"

# the same agents through `skipper link serve`: the bridge connects over TCP (--connect)
bridge="$XDG_DATA_HOME/skipper/soar-venv/bin/python"
server=""
trap 'if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
serve() { # NAME ARGS...: start a server in the background, set $server and $addr
  local name="$1"; shift
  # the files exist before the server starts: the loop below reads the first at once
  : >"$work/$name.out"
  : >"$work/$name.err"
  "$SKIPPER_BIN" link serve --listen 127.0.0.1:0 --until 5m --log "$work/$name.mcap" \
    --summary-json "$work/$name.json" "$@" >"$work/$name.out" 2>"$work/$name.err" &
  server=$!
  addr=""
  for _ in $(seq 1 200); do
    addr="$(sed -n 's/.*listening on \([0-9.:]*\).*/\1/p' "$work/$name.out" | head -n 1)"
    [ -n "$addr" ] && break
    sleep 0.05
  done
  if [ -z "$addr" ]; then
    echo "FAILED: skipper link serve did not start"; cat "$work/$name.err"; exit 1
  fi
}
SKIPPER_LOG=skipper_sps::speech=info serve served --world examples/worlds/soar-tour.world
"$bridge" -m skipper_soar_bridge examples/soar/waypoint-tour.soar --connect "$addr" --seed 0
wait "$server"
# the agent's `say` messages went to the real espeak-ng (installed by install.sh), each
# run to its end with status 0 (without a sound card it still synthesises, then
# reports the missing device on stderr and exits 0)
spoken="$(sed 's/\x1b\[[0-9;]*m//g' "$work/served.err" | sed -n 's/.*speech.*spoken=\([0-9]*\).*/\1/p' | tail -n 1)"
if [ -z "$spoken" ] || [ "$spoken" -lt 3 ]; then
  echo "FAILED: espeak-ng spoke ${spoken:-nothing} of the tour's utterances"; cat "$work/served.err"; exit 1
fi
echo "ok: espeak-ng spoke $spoken utterances"
"$PYTHON" "$here/check_soar_run.py" "$work/served.mcap" "$work/served.json" \
  --goal robot1:4,0 --goal robot1:4,3 --goal robot1:0,3 --goal robot1:0,0 \
  --status robot1:add-waypoint:complete --status robot1:set-velocity:executing \
  --status robot1:stop:complete --speech "robot1:tour complete"
echo "ok: the tour through skipper link serve ($addr)"

# two agents, each with its own bridge process, in one served world
serve served2 --world examples/worlds/soar-patrol.world --agents 2
"$bridge" -m skipper_soar_bridge examples/soar/dispatcher.soar --connect "$addr" --robot robot1 &
first=$!
"$bridge" -m skipper_soar_bridge examples/soar/patrol.soar --connect "$addr" --robot robot2
wait "$first"
wait "$server"
server=""
"$PYTHON" "$here/check_soar_run.py" "$work/served2.mcap" "$work/served2.json" \
  --goal robot2:3,2 --goal robot2:3,-2 --goal robot2:0,0 \
  --status robot1:send-message:complete --status robot2:add-waypoint:complete \
  --status robot2:send-message:complete --speech "robot1:patrol complete"
echo "ok: two agents through skipper link serve ($addr)"

# an agent that does not load is bad input (exit status 2) with the kernel's message
printf 'sp {broken (state <s> ^superstate nil) --> \n' > "$work/broken.soar"
set +e
"$SKIPPER_BIN" run --soar "$work/broken.soar" --until 1s --no-log >/dev/null 2>"$work/err.txt"
status=$?
set -e
if [ "$status" != 2 ]; then
  echo "FAILED: a broken agent exited with $status, expected 2"; cat "$work/err.txt"; exit 1
fi
echo "ok: a broken agent is bad input: $(head -c 200 "$work/err.txt")"

# an agent that does not load: Soar's message, without its progress stars
{
  for k in $(seq 1 100); do printf 'sp {make-x%s\n (state <s> ^superstate nil)\n-->\n (<s> ^x%s 1)}\n' "$k" "$k"; done
  printf 'sp {broken\n (state <s> ^superstate nil\n-->\n (<s> ^z 1)}\n'
} > "$work/broken.soar"
if "$SKIPPER_BIN" run --soar "$work/broken.soar" --no-log --until 5s 2>"$work/broken.err" >/dev/null; then
  echo "FAILED: an agent that does not load ran"; exit 1
fi
grep -q "Expected variable or constant for test" "$work/broken.err" || { echo "FAILED: no Soar message"; cat "$work/broken.err"; exit 1; }
if grep -q '\*\*' "$work/broken.err"; then echo "FAILED: Soar's progress stars in the error"; cat "$work/broken.err"; exit 1; fi
echo "soar: a broken agent's load error has no progress stars"
