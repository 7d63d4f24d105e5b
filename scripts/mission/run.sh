#!/usr/bin/env bash
# Missions against real software we did not write:
# 1. the stock Lua 5.4 compiler (luac5.4 -p) accepts every example mission, so the files
#    Skipper runs are plain Lua 5.4, as on the vehicle;
# 2. the spec's mission flown by the release binary gives a run log that the Python mcap
#    package (Foxglove's reader) reads: item states on /controller, transitions on /events,
#    the depth profile on /signals, and the summary keys of the contract.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
: "${SKIPPER_BIN:=$root/target/release/skipper}"
: "${PYTHON:=python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if command -v luac5.4 >/dev/null 2>&1; then
  for f in "$root"/examples/missions/*.lua; do
    luac5.4 -p "$f"
  done
  echo "luac5.4 accepts $(ls "$root"/examples/missions/*.lua | wc -l) example missions"
else
  echo "luac5.4 missing: syntax check skipped (run scripts/mission/install.sh)" >&2
fi
"$SKIPPER_BIN" mission check "$root/examples/missions/test_mission.lua" >/dev/null
"$SKIPPER_BIN" run "$root/examples/missions/test_mission.lua" --log "$work/run.mcap" \
  --summary-json "$work/summary.json" >/dev/null
"$PYTHON" "$here/check_mission_log.py" "$work/run.mcap" "$work/summary.json"
