#!/usr/bin/env bash
# The stock Lua 5.4 compiler, to check that example missions are plain Lua 5.4.
set -euo pipefail
if command -v luac5.4 >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = 0 ]; then
  apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null || true
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq lua5.4 >/dev/null
else
  echo "lua5.4 is not installed and we are not root: the syntax check will be skipped" >&2
fi
