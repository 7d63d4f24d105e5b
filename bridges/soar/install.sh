#!/usr/bin/env bash
# Install the Soar bridge: a virtual environment with soar-sml and this package, where
# `skipper run --soar` looks for it (${XDG_DATA_HOME:-~/.local/share}/skipper/soar-venv),
# or in the directory given as the first argument.
#
#   bash bridges/soar/install.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${1:-${XDG_DATA_HOME:-$HOME/.local/share}/skipper/soar-venv}"
python="${PYTHON3:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --disable-pip-version-check -q "$here"
"$venv/bin/python" -c "import soar_sml, skipper_soar_bridge; print('skipper-soar-bridge installed in $venv')"
