#!/bin/sh
# fuzz_exec_rate.sh: libFuzzer exec/s of fuzz_decode and fuzz_structured without sanitizers, one core.
#
# Usage: bench/fuzz_exec_rate.sh [SECONDS]   (default 20 per target)
# Builds the fuzz-bench preset (clang, libFuzzer, no ASan/UBSan) and fuzzes each target pinned to
# CPU 0, from the seeds of fuzz/corpus/<target>/ that are 1-4 KB real-schema messages, with the
# flags of fuzz/<target>.options (what smoke.sh and ClusterFuzzLite pass) and inputs capped at 4 KB.
# FUZZ_EXEC_RATE_BIN=DIR measures the targets and dictionaries in DIR instead, without building
# (a copy of another build, for before/after runs side by side); FUZZ_EXEC_RATE_FLAGS adds libFuzzer
# flags after the .options ones (to try one, e.g. -entropic=0; -seed=N makes a pair of runs of two
# builds follow comparable paths); FUZZ_EXEC_RATE_TARGETS picks the targets (default both).
# Prints libFuzzer's final exec/s (wall clock) and executions per CPU second (user + system time of
# the fuzzer process), which stays meaningful when other jobs share the core: on a busy machine compare that column, not the
# wall-clock one. CROSSCHECK_STRUCTURED_ONE_IN (the share of structure-aware mutations of
# fuzz_structured, default 1 in 16) is passed through. The cost of
# gen::Mutator per family is printed by build/bench_mutator (docs/benchmarks.md).
# Needs clang-14 with libFuzzer, GNU time (/usr/bin/time) and, optionally, taskset.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-20}
bin=${FUZZ_EXEC_RATE_BIN:-build-fuzz-bench/fuzz}

if [ -z "${FUZZ_EXEC_RATE_BIN:-}" ]; then
  cmake --preset fuzz-bench >/dev/null
  cmake --build --preset fuzz-bench --target fuzz_decode fuzz_structured fuzz_dicts >/dev/null
fi

# The corpus folder lives in memory when possible: on a disk file system the early corpus growth
# (hundreds of new files a second) costs the fuzzer a tenth of its time in file creation.
work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$work"' EXIT
pin=""
if command -v taskset >/dev/null 2>&1; then pin="taskset -c 0"; fi

echo "target            exec/s   exec/CPU-s   runs      seeds  final corpus    cov/ft"
for target in ${FUZZ_EXEC_RATE_TARGETS:-fuzz_decode fuzz_structured}; do
  mkdir -p "$work/$target/seeds"
  for f in fuzz/corpus/$target/*; do
    size=$(wc -c <"$f")
    if [ "$size" -ge 1024 ] && [ "$size" -le 4096 ]; then cp "$f" "$work/$target/seeds/"; fi
  done
  seeds=$(ls "$work/$target/seeds" | wc -l)
  cp -r "$work/$target/seeds" "$work/$target/corpus"
  # The [libfuzzer] "key = value" lines of the target's .options file, as smoke.sh reads them; the
  # flags after them (the 4 KB cap) win.
  options=""
  if [ -f "fuzz/$target.options" ]; then
    options=$(sed -n '/^\[libfuzzer\]/,/^\[/{s/^\([a-z_]*\) *= *\([^ ]*\)$/-\1=\2/p}' "fuzz/$target.options")
  fi
  # shellcheck disable=SC2086  # $options and $FUZZ_EXEC_RATE_FLAGS are lists of flags
  /usr/bin/env time -f "%U %S" -o "$work/$target/cpu" $pin "$bin/$target" -dict="$bin/$target.dict" \
    $options ${FUZZ_EXEC_RATE_FLAGS:-} -max_len=4096 -len_control=0 -max_total_time="$seconds" \
    -print_final_stats=1 \
    "$work/$target/corpus" >"$work/$target/log" 2>&1
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$target/log")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$target/log")
  corpus=$(sed -n 's/.*DONE.*corp: \([^ ]*\).*/\1/p' "$work/$target/log")
  features=$(sed -n 's/.*DONE *cov: \([0-9]*\) ft: \([0-9]*\).*/\1\/\2/p' "$work/$target/log")
  per_cpu=$(awk -v runs="$runs" '{ printf "%.0f", runs / ($1 + $2) }' "$work/$target/cpu")
  printf "%-16s %7s %12s   %-9s %5s  %-13s %s\n" "$target" "$rate" "$per_cpu" "$runs" "$seeds" "$corpus" \
    "$features"
done
