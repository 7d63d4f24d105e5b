#!/usr/bin/env bash
# Read a Skipper run log with the Python mcap package (Foxglove's reader).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
: "${SKIPPER_BIN:=$root/target/release/skipper}"
: "${PYTHON:=python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$SKIPPER_BIN" run --world "$root/examples/worlds/soccer.world" --until 60s --log "$work/run.mcap" --summary-json "$work/summary.json" >/dev/null
"$PYTHON" "$here/check_run_log.py" "$work/run.mcap" "$work/summary.json"
