#!/usr/bin/env bash
# What the Soar test needs besides Python packages: Debian's espeak-ng, which Skipper
# runs for what agents send to `say` (the test checks that it was run for each
# utterance). Idempotent: skips what is already there.
set -euo pipefail
if ! command -v espeak-ng >/dev/null 2>&1; then
  apt="apt-get -o DPkg::Lock::Timeout=600"
  if ! $apt install -y --no-install-recommends espeak-ng; then
    $apt update
    $apt install -y --no-install-recommends espeak-ng
  fi
fi
echo "espeak-ng: $(espeak-ng --version 2>/dev/null || echo missing)"
