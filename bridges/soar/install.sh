#!/usr/bin/env bash
# Install the Soar bridge: a virtual environment with soar-sml and this package, where
# `skipper run --soar` looks for it (${XDG_DATA_HOME:-~/.local/share}/skipper/soar-venv),
# or in the directory given as the first argument. The bridge's command,
# `skipper-soar-bridge` (for `skipper link serve`), is in the environment's bin/; it is
# linked into ${XDG_BIN_HOME:-~/.local/bin} (or the directory given as the second
# argument), and the script says how to put that directory on PATH when it is not.
#
#   bash bridges/soar/install.sh [VENV [BIN_DIR]]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${1:-${XDG_DATA_HOME:-$HOME/.local/share}/skipper/soar-venv}"
bin="${2:-${XDG_BIN_HOME:-$HOME/.local/bin}}"
python="${PYTHON3:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --disable-pip-version-check -q "$here"
"$venv/bin/python" -c "import soar_sml, skipper_soar_bridge"
command="$venv/bin/skipper-soar-bridge"
echo "skipper-soar-bridge installed in $venv"
echo "  command: $command"
if mkdir -p "$bin" 2>/dev/null && ln -sf "$command" "$bin/skipper-soar-bridge" 2>/dev/null; then
  echo "  linked:  $bin/skipper-soar-bridge -> $command"
  case ":$PATH:" in
    *":$bin:"*) echo "  $bin is on PATH: run skipper-soar-bridge" ;;
    *)
      echo "  $bin is not on PATH; add it (e.g. to ~/.bashrc or ~/.profile):"
      echo "    export PATH=\"$bin:\$PATH\""
      ;;
  esac
else
  echo "  could not link it into $bin; put its directory on PATH:"
  echo "    export PATH=\"$venv/bin:\$PATH\""
fi
