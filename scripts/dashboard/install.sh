#!/usr/bin/env bash
# What the dashboard's browser test needs: Debian's chromium (and a font for readable
# screenshots), and playwright-core from npm into scripts/dashboard/node_modules, at the
# version of package-lock.json. playwright-core never downloads a browser; the test
# launches /usr/bin/chromium. Idempotent: skips what is already there.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -d /usr/share/fonts/truetype/dejavu ] || need+=(fonts-dejavu-core)
if [ "${#need[@]}" -gt 0 ]; then
  apt="apt-get -o DPkg::Lock::Timeout=600"
  if ! $apt install -y --no-install-recommends "${need[@]}"; then
    $apt update
    $apt install -y --no-install-recommends "${need[@]}"
  fi
fi

want="$(sed -n 's/.*"playwright-core": "\([0-9.]*\)".*/\1/p' "$here/package.json")"
have=""
if [ -f "$here/node_modules/playwright-core/package.json" ]; then
  have="$(sed -n 's/^  "version": "\([0-9.]*\)".*/\1/p' "$here/node_modules/playwright-core/package.json")"
fi
if [ "$have" != "$want" ]; then
  (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts)
fi
echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo missing); playwright-core $want"
