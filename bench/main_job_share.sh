#!/usr/bin/env bash
# main_job_share.sh: issue #15 item 4, how much of the slower SDK's own rate the main job delivers.
# First a `crosscheck fuzz --layers structural --sent-sample 10` run keeps the mix the main job sends
# (every 8th sampled file is benched). Then ROUNDS rounds, each a main job alone for SECONDS (inputs
# sent per second, CPU seconds of crosscheck and each adapter) followed at once by `bench_adapters
# --seconds 2` on the mix for the first adapter's in-process rates (hot loop, in context). The
# machine's speed moves by a third between minutes here (docs/benchmarks.md), so a run and a bench
# minutes apart measured the machine as much as the harness: each round's ratio pairs a run with the
# bench that follows it, and the total is the sent inputs over the run time of all rounds against
# the mean of the rounds' in-process rates. Goals: python alone 0.8, python + rust 0.7 of python's.
# Procedure and figures: docs/benchmarks.md.
#
#   bench/main_job_share.sh ADAPTERS [SEED] [SECONDS] [ROUNDS]
#   bench/main_job_share.sh python 1          # python alone, seed 1, 3 rounds of 20 s runs
#   bench/main_job_share.sh python,rust 2 30 4
#   CROSSCHECK=/tmp/crosscheck-before bench/main_job_share.sh python   # another build of crosscheck
set -u
ADAPTERS=${1:?usage: bench/main_job_share.sh ADAPTERS [SEED] [SECONDS] [ROUNDS]}
SEED=${2:-1}
SECONDS_PER_RUN=${3:-20}
ROUNDS=${4:-3}
FIRST=${ADAPTERS%%,*}
cd "$(dirname "$0")/.."
CC=${CROSSCHECK:-build/crosscheck}
BENCH=build/bench_adapters
for b in "$CC" "$BENCH"; do
  [ -x "$b" ] || { echo "main_job_share.sh: $b not found (build first: cmake --build --preset dev)" >&2; exit 2; }
done
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# Exit 0 (nothing unexpected) and 1 (divergences, which fuzzing the SDKs finds) are both a finished run.
fuzz() {
  local log=$1
  shift
  "$CC" fuzz --time "${SECONDS_PER_RUN}s" --seed "$SEED" --adapters "$ADAPTERS" --layers structural \
    --seeds corpus/examples --reduce-budget 0 --verbose "$@" >"$log" 2>&1
  local rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "main_job_share.sh: crosscheck fuzz exited $rc ($log):" >&2
    tail -5 "$log" >&2
    exit 1
  fi
}
fuzz "$OUT/sampled.log" --sent-sample 10 --out "$OUT/sampled"
# Every 8th sampled file, in sorted order, keeping the root folders bench_adapters reads them by.
mkdir -p "$OUT/mix"
i=0
while IFS= read -r -d '' f; do
  if [ $((i % 8)) -eq 0 ]; then
    mkdir -p "$OUT/mix/$(dirname "$f")"
    cp "$OUT/sampled/sent-sample/$f" "$OUT/mix/$f"
  fi
  i=$((i + 1))
done < <(cd "$OUT/sampled/sent-sample" && find . -type f -print0 | sort -z)
echo "== $ADAPTERS, seed $SEED, $ROUNDS rounds of a ${SECONDS_PER_RUN} s run and a bench; $i sampled inputs, every 8th benched"
: >"$OUT/rounds"
for round in $(seq 1 "$ROUNDS"); do
  rm -rf "$OUT/alone"
  fuzz "$OUT/alone.log" --out "$OUT/alone"
  "$BENCH" --adapters "$FIRST" --seconds 2 "$OUT/mix" >"$OUT/bench.log" 2>&1
  # this session: 20.7 s, 33572 inputs sent (1621.4/s), ...
  run=$(sed -nE 's/^this session: ([0-9.]+) s, ([0-9]+) inputs sent.*/\1 \2/p' "$OUT/alone.log")
  # adapter, harness, in-process, harness/in-process, in-context, ...
  rates=$(awk -v a="$FIRST" '$1 == a && $3 ~ /^[0-9]/ { print $3, $5 }' "$OUT/bench.log")
  if [ -z "$run" ] || [ -z "$rates" ]; then
    echo "main_job_share.sh: round $round gave no figure (run: $OUT/alone.log, bench: $OUT/bench.log):" >&2
    tail -3 "$OUT/alone.log" "$OUT/bench.log" >&2
    exit 1
  fi
  echo "$run $rates" >>"$OUT/rounds"
  set -- $run $rates
  echo "round $round: $(grep -E '^CPU seconds' "$OUT/alone.log")"
  awk -v s="$1" -v n="$2" -v hot="$3" -v ctx="$4" -v a="$FIRST" 'BEGIN {
    printf "  sent %d in %.1f s: %.0f/s; %s on the mix: hot %.0f/s, in context %.0f/s; ratio %.2f / %.2f\n",
      n, s, n / s, a, hot, ctx, n / s / hot, n / s / ctx }'
done
awk -v a="$FIRST" '{ s += $1; n += $2; hot += $3; ctx += $4; k++ } END {
  printf "all rounds: %.0f sent/s; %s hot %.0f/s, in context %.0f/s (means); ratio %.2f / %.2f\n",
    n / s, a, hot / k, ctx / k, n / s / (hot / k), n / s / (ctx / k) }' "$OUT/rounds"
