#!/usr/bin/env bash
# Fuzz every cargo-fuzz target under fuzz/ for FUZZ_SECONDS each (default 30; .ci/run uses 20), starting
# from its corpus in fuzz/corpus/<target>. cargo fuzz needs nightly features; the stable
# toolchain provides them with RUSTC_BOOTSTRAP=1. New crashes fail the run and are left in
# fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-30}"
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1
failed=""
for t in $(cd fuzz && cargo fuzz list); do
  mkdir -p "fuzz/corpus/$t"
  # a scratch copy of the corpus, so that CI does not grow the committed one
  work="$(mktemp -d)"
  cp -r "fuzz/corpus/$t/." "$work/"
  echo "--- fuzz $t for ${seconds}s"
  status=0
  (cd fuzz && cargo fuzz run "$t" "$work" -- -max_total_time="$seconds" -print_final_stats=1) \
    > "$work.log" 2>&1 || status=$?
  grep -E "^(stat::number_of_executed_units|stat::new_units_added|==|SUMMARY|thread)" "$work.log" || true
  if [ "$status" -ne 0 ]; then
    echo "FAILED: fuzzing $t (exit $status); the input is in fuzz/artifacts/$t/"
    tail -n 40 "$work.log"
    failed="$failed $t"
  fi
  rm -rf "$work" "$work.log"
done
if [ -n "$failed" ]; then
  echo "fuzzing found crashes in:$failed"
  exit 1
fi
