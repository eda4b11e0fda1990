#!/usr/bin/env bash
# main_job_share.sh: issue #15 item 4, how much of the slower SDK's own rate the main job delivers.
# Runs `crosscheck fuzz --layers structural` twice with one seed: alone for the rate (inputs sent per
# second, CPU seconds of crosscheck and each adapter), then with --sent-sample 10 to keep the mix it
# sends; then bench_adapters measures the first adapter's in-process rates (hot loop, in context) on
# every 8th sampled file. The ratio is the run's sent/s over the in-process rate (goals: python
# alone 0.8, python + rust 0.7 of python's). Procedure and figures: docs/benchmarks.md.
#
#   bench/main_job_share.sh ADAPTERS [SEED] [SECONDS]
#   bench/main_job_share.sh python 1          # python alone, seed 1, 30 s a run
#   bench/main_job_share.sh python,rust 2 60
set -u
ADAPTERS=${1:?usage: bench/main_job_share.sh ADAPTERS [SEED] [SECONDS]}
SEED=${2:-1}
SECONDS_PER_RUN=${3:-30}
cd "$(dirname "$0")/.."
CC=build/crosscheck
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
    --seeds corpus/examples --reduce-budget 0 "$@" >"$log" 2>&1
  local rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "main_job_share.sh: crosscheck fuzz exited $rc ($log):" >&2
    tail -5 "$log" >&2
    exit 1
  fi
}
fuzz "$OUT/alone.log" --out "$OUT/alone"
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
echo "== $ADAPTERS, seed $SEED, ${SECONDS_PER_RUN} s; $i sampled inputs, every 8th benched"
grep -E "^this session|^CPU seconds" "$OUT/alone.log"
"$BENCH" --adapters "${ADAPTERS%%,*}" --seconds 4 "$OUT/mix" | grep -E "^(adapter|${ADAPTERS%%,*}) "
