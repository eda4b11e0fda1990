#!/bin/sh
# smoke.sh: fuzz one libFuzzer target for a few seconds on a scratch copy of its seed corpus.
#
# Usage: smoke.sh TARGET_BINARY SEED_CORPUS_DIR WORK_DIR SECONDS
# Flags come from fuzz/<target>.options ([libfuzzer] key = value lines, the OSS-Fuzz convention);
# the dictionary is <target>.dict beside the binary (generated from the schema) or in fuzz/.
# Exit status: libFuzzer's (0 clean; non-zero on a crash, leak, timeout or violated invariant, whose
# input is kept in WORK_DIR/artifacts/). Prints the final exec/s either way.
set -eu
if [ $# -ne 4 ]; then
  echo "Usage: $0 TARGET_BINARY SEED_CORPUS_DIR WORK_DIR SECONDS" >&2
  exit 2
fi
bin=$1 seeds=$2 work=$3 seconds=$4
name=$(basename "$bin")
here=$(cd "$(dirname "$0")" && pwd)

rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$seeds"/* "$work/corpus/"

set --
if [ -f "$here/$name.options" ]; then
  # "key = value" lines of the [libfuzzer] section become -key=value.
  for flag in $(sed -n '/^\[libfuzzer\]/,/^\[/{s/^\([a-z_]*\) *= *\([^ ]*\)$/-\1=\2/p}' "$here/$name.options"); do
    set -- "$@" "$flag"
  done
fi
for dict in "$(dirname "$bin")/$name.dict" "$here/$name.dict"; do
  if [ -f "$dict" ]; then
    set -- "$@" "-dict=$dict"
    break
  fi
done

status=0
"$bin" "$@" -max_total_time="$seconds" -runs=3000000 -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log" 2>&1 || status=$?

rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log")
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
echo "$name: ${runs:-?} runs, ${rate:-?} exec/s, exit status $status (flags: $*)"
if [ "$status" -ne 0 ]; then
  grep -A12 -E 'INVARIANT VIOLATED|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error' \
    "$work/log" | head -60
  for artifact in "$work"/artifacts/*; do
    [ -f "$artifact" ] || continue
    echo "reproducer: $artifact"
    echo "  minimize: $bin -minimize_crash=1 -runs=100000 $artifact"
  done
  echo "full log: $work/log"
fi
exit "$status"
