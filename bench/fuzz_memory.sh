#!/usr/bin/env bash
# fuzz_memory.sh: resident memory of crosscheck over a long `crosscheck fuzz` run (issue: flat, no
# growth above 10% after the first minute). Samples VmRSS of the crosscheck process (not its
# adapters) every few seconds and prints the curve and the verdict.
#
#   bench/fuzz_memory.sh [BUILD_DIR] [DURATION] [-- FUZZ OPTIONS]
#   bench/fuzz_memory.sh build 10m -- --adapters python,rust
#   KEEP_RUN=/tmp/run bench/fuzz_memory.sh build 10m -- --adapters python,rust   # keeps the run folder
set -u
BUILD=${1:-build}
DURATION=${2:-10m}
shift 2 2>/dev/null || shift $#
[ "${1:-}" = "--" ] && shift
CC="$BUILD/crosscheck"
[ -x "$CC" ] || { echo "fuzz_memory.sh: $CC not found (build first, or name the build folder)" >&2; exit 2; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
RUN="${KEEP_RUN:-$OUT/run}"
[ -e "$RUN" ] && { echo "fuzz_memory.sh: $RUN exists (KEEP_RUN wants a new folder)" >&2; exit 2; }
"$CC" fuzz --time "$DURATION" --seed 1 --out "$RUN" "$@" >"$OUT/log" 2>&1 &
pid=$!
start=$(date +%s)
samples="$OUT/rss"
while kill -0 $pid 2>/dev/null; do
  rss=$(awk '/^VmRSS:/ {print $2}' /proc/$pid/status 2>/dev/null)
  [ -n "$rss" ] && echo "$(( $(date +%s) - start )) $rss" >>"$samples"
  sleep 5
done
wait $pid
rc=$?
[ -s "$samples" ] || { echo "fuzz_memory.sh: no sample taken (crosscheck exited $rc); log:" >&2; cat "$OUT/log" >&2; exit 2; }
python3 - "$samples" "$rc" <<'PY'
import sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1])]
first = [kb for t, kb in rows if t <= 60]
later = [kb for t, kb in rows if t > 60]
print("seconds  VmRSS (MB)")
step = max(1, len(rows) // 20)
for t, kb in rows[::step]:
    print("%7d  %8.1f" % (t, kb / 1024))
if not later:
    print("run shorter than a minute: no verdict"); sys.exit(2)
base = max(first)
peak = max(later)
growth = (peak - base) / base * 100
print("first minute peak %.1f MB, later peak %.1f MB, end %.1f MB: growth %.1f%% (goal <= 10%%) -> %s" % (
    base / 1024, peak / 1024, rows[-1][1] / 1024, growth, "met" if growth <= 10 else "NOT met"))
print("crosscheck exit status", sys.argv[2])
PY
