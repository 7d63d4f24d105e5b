#!/usr/bin/env bash
# Fuzz the cargo-fuzz targets under fuzz/ (AddressSanitizer on, cargo fuzz's default).
# cargo fuzz needs nightly features; the stable toolchain provides them with
# RUSTC_BOOTSTRAP=1. A crash, a timeout or an out-of-memory fails the run and leaves the
# input in fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh                    every target for FUZZ_SECONDS each (default 30;
#                                      .ci/run uses 10) on a scratch copy of its corpus,
#                                      FUZZ_JOBS targets at a time (default: the cores);
#                                      the copy holds every named seed and at most
#                                      FUZZ_SHORT_INPUTS (default 300; 0: all) of the
#                                      inputs the fuzzer found, a sample that changes
#                                      with the commit (--replay runs them all)
#   scripts/fuzz.sh --long [N] [T...]  a campaign: N executions per target (default 10^7),
#                                      one target at a time under nice -n 19; the new
#                                      inputs that add coverage are merged into
#                                      fuzz/corpus/<target> (libFuzzer -merge=1); prints
#                                      one Markdown row per target for docs/fuzzing.md
#                                      (executions, rate, coverage, corpus, findings, wall
#                                      time, load at start and end)
#                                      (FUZZ_LONG_SECONDS caps each campaign's time: the
#                                      row then shows the executions it reached); every
#                                      FUZZ_PROGRESS_SECONDS (default 300) a progress
#                                      line on standard error; started in a session of
#                                      its own (setsid), it sets that session's
#                                      autogroup nice to 19; FUZZ_FORK=J runs each
#                                      campaign as J fuzzing processes at once
#                                      (libFuzzer's -fork=J: one campaign, its
#                                      executions summed; crashes, timeouts and OOM
#                                      still stop it); stop one with SIGTERM to the
#                                      fuzzer (SIGINT to it in the default mode);
#                                      the fuzzer's stack is FUZZ_STACK_KB (default
#                                      2048, a spawned Rust thread's)
#   scripts/fuzz.sh --rate [S] [T...]  each target's executions per second over S seconds
#                                      (default 20), niced: per second of wall time and
#                                      per second of the fuzzer's own CPU time (the load
#                                      does not change the second)
#   scripts/fuzz.sh --replay [T...]    run every corpus input once (no fuzzing): a corpus
#                                      found by a build without ASan, replayed under it
#   scripts/fuzz.sh --asan-tests       the counting-allocator and native-backend tests
#                                      under AddressSanitizer (see docs/fuzzing.md)
#   scripts/fuzz.sh --build            build every target and stop (.ci/run builds them
#                                      beside the tests against real peers)
#
# FUZZ_TARGET_DIR sets cargo's target directory for the fuzz build (default: cargo
# fuzz's own, fuzz/target). FUZZ_BUILD_ARGS adds arguments to `cargo fuzz build` (for
# example "--dev" or "-s none"); the fuzzers are the built binaries, run directly.
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
target_dir=()
if [ -n "${FUZZ_TARGET_DIR:-}" ]; then
  # absolute: cargo fuzz builds from fuzz/, the binaries are run from here
  target_dir=(--target-dir "$(realpath -m "$FUZZ_TARGET_DIR")")
fi
read -r -a build_args <<< "${FUZZ_BUILD_ARGS:-}"
# where cargo fuzz puts the binaries: <target dir>/<host>/release, or debug for --dev
bin_dir() {
  local host profile=release a
  host="$(rustc -vV | sed -n 's/^host: //p')"
  for a in "${build_args[@]}"; do
    case "$a" in --dev | -D) profile=debug ;; esac
  done
  echo "$(realpath -m "${FUZZ_TARGET_DIR:-fuzz/target}")/$host/$profile"
}
bins="$(bin_dir)"
# what cargo fuzz run would set (the sanitizer's ODR check trips on Rust's symbols)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_odr_violation=0}"
build() { (cd fuzz && cargo fuzz build "${target_dir[@]}" "${build_args[@]}" "$@"); }
# run target $1's fuzzer with the rest as libFuzzer's arguments
fuzzer() {
  local t="$1"
  shift
  mkdir -p "fuzz/artifacts/$t"
  "$bins/$t" -artifact_prefix="fuzz/artifacts/$t/" "$@"
}
# the campaigns' limits: an input that runs 10 s is a timeout, 2 GiB is out of memory
# (the short pass keeps libFuzzer's defaults, so a loaded CI machine cannot make it fail)
limits=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
# FUZZ_FORK=J (J > 1): a campaign is J processes of libFuzzer's fork mode, which by
# default ignores timeouts and OOM; here they stay findings.
fork=()
if [ "${FUZZ_FORK:-1}" -gt 1 ]; then
  fork=(-fork="$FUZZ_FORK" -ignore_crashes=0 -ignore_timeouts=0 -ignore_ooms=0)
fi

targets() { (cd fuzz && cargo fuzz list); }

# The short pass's scratch corpus of target $1 in $2: every named seed, and at most
# FUZZ_SHORT_INPUTS (default 300; 0: all) of the inputs the fuzzer found (named by their
# SHA-1), chosen by the commit, so that successive CI runs load different ones under
# ASan and a slow corpus (xabsl's compiles every input) cannot grow CI's time without
# bound.
short_corpus() {
  local t="$1" work="$2" max="${FUZZ_SHORT_INPUTS:-300}" key
  key="$(git rev-parse HEAD 2>/dev/null || echo no-commit)"
  find "fuzz/corpus/$t" -maxdepth 1 -regextype posix-extended -type f ! -regex '.*/[0-9a-f]{40}' \
    -exec cp -t "$work/" {} +
  find "fuzz/corpus/$t" -maxdepth 1 -regextype posix-extended -type f -regex '.*/[0-9a-f]{40}' |
    sort |
    if [ "$max" -gt 0 ]; then shuf -n "$max" --random-source=<(yes "$key"); else cat; fi |
    xargs -r cp -t "$work/"
}

# One target of the short pass: $2 seconds on a scratch copy of its corpus, the summary
# and (on a finding) the log's tail printed at once; exit status of the fuzzer.
short_one() {
  local t="$1" seconds="$2" work status=0
  # a scratch copy of the corpus, so that CI does not grow the committed one
  work="$(mktemp -d)"
  short_corpus "$t" "$work"
  fuzzer "$t" "$work" -max_total_time="$seconds" -print_final_stats=1 > "$work.log" 2>&1 ||
    status=$?
  {
    echo "--- fuzz $t for ${seconds}s"
    grep -E "^(stat::number_of_executed_units|stat::new_units_added|==|SUMMARY|thread)" "$work.log" || true
    if [ "$status" -ne 0 ]; then
      echo "FAILED: fuzzing $t (exit $status); the input is in fuzz/artifacts/$t/"
      tail -n 40 "$work.log"
    fi
  } | flock "$print_lock" cat
  rm -rf "$work" "$work.log"
  return "$status"
}

# Short pass: FUZZ_SECONDS per target on a scratch copy of the corpus, FUZZ_JOBS targets
# at a time (each fuzzer is one process on one core).
short() {
  local seconds="${FUZZ_SECONDS:-30}" jobs="${FUZZ_JOBS:-$(nproc)}" failed t t0 t1 running=0
  failed="$(mktemp)"
  print_lock="$(mktemp)"
  t0="$(date +%s)"
  echo "--- build every target (cargo fuzz build ${build_args[*]})"
  build
  t1="$(date +%s)"
  for t in $(targets); do
    mkdir -p "fuzz/corpus/$t"
    { short_one "$t" "$seconds" || echo "$t" >> "$failed"; } &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
      wait -n || true
      running=$((running - 1))
    fi
  done
  wait
  echo "fuzz pass: build $((t1 - t0))s, fuzzing $(($(date +%s) - t1))s, $jobs at a time (load $(cut -d' ' -f1-3 /proc/loadavg))"
  if [ -s "$failed" ]; then
    echo "fuzzing found crashes in: $(tr '\n' ' ' < "$failed")"
    rm -f "$failed" "$print_lock"
    exit 1
  fi
  rm -f "$failed" "$print_lock"
}

# While campaign $1 of $2 executions runs (its log $3, started at $4 in epoch seconds):
# every FUZZ_PROGRESS_SECONDS (default 300) a line on standard error with the executions
# so far, the rate and the time left at that rate. Standard output stays the table.
progress() {
  local t="$1" runs="$2" log="$3" start="$4" every="${FUZZ_PROGRESS_SECONDS:-300}" waited=0 n s
  while true; do
    sleep 5
    waited=$((waited + 5))
    [ "$waited" -ge "$every" ] || continue
    waited=0
    n="$(tail -c 4096 "$log" | grep -Eo '^#[0-9]+' | tail -n1 | tr -d '#')"
    s=$(($(date +%s) - start))
    [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$s" -gt 0 ] || continue
    echo "  $t: $n of $runs executions ($((n * 100 / runs)) %), $((n / s))/s, about $((((runs - n) * s / n + 59) / 60)) min left" >&2
  done
}

# A campaign's executions from its log $1: libFuzzer's final count, or in fork mode (whose
# parent counts no unit itself) the last status line's, which sums the jobs'.
executions() {
  local n
  n="$(grep -Eo '^stat::number_of_executed_units: *[0-9]+' "$1" | grep -Eo '[0-9]+$' | tail -n1)"
  if [ "${FUZZ_FORK:-1}" -gt 1 ] || [ -z "$n" ]; then
    n="$(grep -Eo '^#[0-9]+|fuzzed for [0-9]+ iterations' "$1" | grep -Eo '[0-9]+' | sort -n | tail -n1)"
  fi
  echo "$n"
}

# One campaign of $1 executions on target $2; prints its Markdown row. New inputs go to a
# scratch directory first; a clean campaign then merges into fuzz/corpus/<target> only the
# ones that add coverage over what is there (libFuzzer's -merge=1), so the corpus stays
# minimised and the named seeds (which tests use by name) stay as they are.
campaign() {
  local runs="$1" t="$2" log status start end execs cov ft corp findings load0 load1 new rate reporter
  mkdir -p "fuzz/corpus/$t" fuzz/logs "fuzz/artifacts/$t"
  log="fuzz/logs/$t.long.log"
  new="fuzz/logs/$t.new"
  rm -rf "$new"
  mkdir -p "$new"
  status=0
  # the build is not part of the campaign's time
  build "$t" > "$log" 2>&1 || {
    echo "FAILED: building $t"; tail -n 30 "$log"; return 1; }
  load0="$(cut -d' ' -f1-3 /proc/loadavg)"
  start="$(date +%s)"
  progress "$t" "$runs" "$log" "$start" &
  reporter=$!
  # the stack of a thread Rust spawns (2 MiB), not the main thread's 8: code that runs
  # on a spawned thread must not recurse deeper than that
  (ulimit -s "${FUZZ_STACK_KB:-2048}" &&
    exec nice -n 19 "$bins/$t" -artifact_prefix="fuzz/artifacts/$t/" "$new" "fuzz/corpus/$t" \
      -runs="$runs" ${FUZZ_LONG_SECONDS:+-max_total_time="$FUZZ_LONG_SECONDS"} "${limits[@]}" \
      "${fork[@]}") >> "$log" 2>&1 || status=$?
  kill "$reporter" 2>/dev/null || true
  wait "$reporter" 2>/dev/null || true
  end="$(date +%s)"
  load1="$(cut -d' ' -f1-3 /proc/loadavg)"
  execs="$(executions "$log")"
  cov="$(grep -Eo 'cov: [0-9]+' "$log" | tail -n1 | grep -Eo '[0-9]+')"
  ft="$(grep -Eo 'ft: [0-9]+' "$log" | tail -n1 | grep -Eo '[0-9]+')"
  rate="?"
  if [ -n "$execs" ] && [ "$end" -gt "$start" ]; then rate="$((execs / (end - start)))"; fi
  # 72: libFuzzer's status when interrupted (SIGINT; SIGTERM in fork mode): stopped, not a finding
  if [ "$status" -eq 0 ] || [ "$status" -eq 72 ]; then
    findings="0 crashes, 0 timeouts, 0 OOM"
    [ "$status" -eq 0 ] || findings="stopped (interrupted) before $runs: $findings"
    nice -n 19 "$bins/$t" "fuzz/corpus/$t" "$new" -merge=1 "${limits[@]}" >> "$log" 2>&1 || true
    rm -rf "$new"
  else
    findings="FOUND (exit $status): $(grep -Eo '(deadly signal|timeout|out-of-memory|panicked at [^ ]+|ERROR: [A-Za-z]+: [a-z-]+)' "$log" | head -n1); input in fuzz/artifacts/$t/"
  fi
  corp="$(find "fuzz/corpus/$t" -type f | wc -l)"
  printf '| %s | %s | %s/s | %s | %s | %s | %s | %ss | %s | %s |\n' \
    "$t" "${execs:-?}" "$rate" "${cov:-?}" "${ft:-?}" "$corp" "$findings" "$((end - start))" "$load0" "$load1"
  return "$status"
}

# Each target's executions per second over $1 seconds (default 20), niced, on a scratch
# copy of its corpus: per second of wall time (what a campaign of 10^7 takes on this
# machine now) and per second of the fuzzer's CPU time (what it does with a core).
rate() {
  local seconds="${1:-20}" t work execs cpu list
  shift || true
  list=("$@")
  if [ "${#list[@]}" -eq 0 ]; then mapfile -t list < <(targets); fi
  echo "| target | executions in ${seconds}s | per second | per CPU second | 10^7 would take | cov | ft | load (1/5/15 min) |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  for t in "${list[@]}"; do
    work="$(mktemp -d)"
    cp -r "fuzz/corpus/$t/." "$work/"
    /usr/bin/time -f 'cpu %U %S' -o "$work.cpu" nice -n 19 "$bins/$t" \
      -artifact_prefix="$work.artifact-" "$work" -max_total_time="$seconds" "${limits[@]}" \
      > "$work.log" 2>&1 || true
    execs="$(FUZZ_FORK=1 executions "$work.log")"
    execs="${execs:-0}"
    cpu="$(awk '/^cpu/ { printf "%d", ($2 + $3) * 100 }' "$work.cpu")"
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$t" "$execs" "$((execs / seconds))" \
      "$( [ "${cpu:-0}" -gt 0 ] && echo "$((execs * 100 / cpu))" || echo "?")" \
      "$( [ "$execs" -gt 0 ] && echo "$((10000000 * seconds / execs))s" || echo "?")" \
      "$(grep -Eo 'cov: [0-9]+' "$work.log" | tail -n1 | grep -Eo '[0-9]+')" \
      "$(grep -Eo 'ft: [0-9]+' "$work.log" | tail -n1 | grep -Eo '[0-9]+')" \
      "$(cut -d' ' -f1-3 /proc/loadavg)"
    if ls "$work".artifact-* >/dev/null 2>&1; then
      echo "FOUND while measuring $t: $(ls "$work".artifact-*)"
    fi
    rm -rf "$work" "$work.log" "$work.cpu"
  done
}

# Every input of each target's corpus run once (libFuzzer's -runs=0 over the corpus):
# what a corpus found by a build without ASan does under the ASan build.
replay() {
  local t list failed=""
  list=("$@")
  if [ "${#list[@]}" -eq 0 ]; then mapfile -t list < <(targets); fi
  for t in "${list[@]}"; do
    mkdir -p fuzz/logs
    if nice -n 19 "$bins/$t" -artifact_prefix="fuzz/artifacts/$t/" -runs=0 "${limits[@]}" \
      "fuzz/corpus/$t" > "fuzz/logs/$t.replay.log" 2>&1; then
      echo "$t: $(find "fuzz/corpus/$t" -type f | wc -l) inputs, $(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "fuzz/logs/$t.replay.log" | tail -n1), no finding"
    else
      echo "FAILED: $t (log fuzz/logs/$t.replay.log)"
      failed="$failed $t"
    fi
  done
  [ -z "$failed" ] || { echo "replay found problems in:$failed"; exit 1; }
}

# Under autogroup scheduling (docs/fuzzing.md) nice ranks processes only within their
# session: a campaign started in a session of its own (setsid) lowers that session's
# share instead, so that it yields to builds and CI runs in other sessions.
yield_session() {
  if [ "$(ps -o sid= -p $$ | tr -d ' ')" = "$$" ] && [ -w /proc/self/autogroup ]; then
    echo 19 > /proc/self/autogroup 2>/dev/null || true
  fi
}

long() {
  local runs="${1:-10000000}" failed="" t
  shift || true
  yield_session
  local list=("$@")
  if [ "${#list[@]}" -eq 0 ]; then
    mapfile -t list < <(targets)
  fi
  echo "| target | executions | per second | coverage (cov) | features (ft) | corpus files | findings | wall time | load at start (1/5/15 min) | load at end |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  local stopped="" status
  for t in "${list[@]}"; do
    status=0
    campaign "$runs" "$t" || status=$?
    case "$status" in
      0) ;;
      72) stopped="$stopped $t" ;;
      *) failed="$failed $t" ;;
    esac
  done
  [ -z "$stopped" ] || echo "stopped before $runs executions (interrupted: SIGINT, or SIGTERM in fork mode):$stopped"
  if [ -n "$failed" ]; then
    echo "the campaign found problems in:$failed (logs in fuzz/logs/)"
    exit 1
  fi
}

# The allocation-counting and native-backend tests, built with AddressSanitizer (the
# standard library stays uninstrumented; an explicit --target keeps build scripts and
# proc macros out of the sanitizer).
asan_tests() {
  local host
  host="$(rustc -vV | sed -n 's/^host: //p')"
  export CARGO_TARGET_DIR="${ASAN_TARGET_DIR:-${CARGO_TARGET_DIR:-target}/asan}"
  export RUSTFLAGS="-Zsanitizer=address"
  export RUSTDOCFLAGS="-Zsanitizer=address"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
  local t=(--target "$host")
  nice -n 19 cargo test "${t[@]}" -p skipper-xabsl --lib --test native_backend --test alloc
  nice -n 19 cargo test "${t[@]}" -p skipper-ros1-wire --test decode_bounds --test ros1_frames_corpus
  nice -n 19 cargo test "${t[@]}" -p skipper-sps --test alloc
  nice -n 19 cargo test "${t[@]}" -p skipper-p2os --test alloc
  nice -n 19 cargo test "${t[@]}" -p skipper-sim --test alloc
  nice -n 19 cargo test "${t[@]}" -p skipper --test mission_alloc
}

case "${1:-}" in
  --long) shift; long "$@" ;;
  --asan-tests) asan_tests ;;
  --rate) shift; rate "$@" ;;
  --replay) shift; replay "$@" ;;
  --build) build ;;
  "") short ;;
  *) echo "usage: scripts/fuzz.sh [--long [N] [TARGET...] | --rate [SECONDS] [TARGET...] | --replay [TARGET...] | --asan-tests | --build]" >&2; exit 2 ;;
esac
