#!/bin/sh
# differential_smoke.sh: a short run of fuzz_differential against a real SDK adapter.
#
# Usage: differential_smoke.sh TARGET_BINARY SEED_CORPUS_DIR WORK_DIR SECONDS
# SECONDS > 0: libFuzzer fuzzes a scratch copy of the seeds for that long; 0: the binary is the
# replay build (no libFuzzer) and runs the seeds once. The adapters are $CROSSCHECK_ADAPTERS
# (default python). Passes when the target exits 0, handed at least one input to its sender, the
# sender decoded every input it was handed, and every finding file written is complete JSON.
# Divergences themselves do not fail it (the pinned SDKs have known ones): they are listed.
set -eu
if [ $# -ne 4 ]; then
  echo "Usage: $0 TARGET_BINARY SEED_CORPUS_DIR WORK_DIR SECONDS" >&2
  exit 2
fi
bin=$1 seeds=$2 work=$3 seconds=$4
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
export CROSSCHECK_ADAPTERS="${CROSSCHECK_ADAPTERS:-python}"
export CROSSCHECK_FINDINGS_DIR="$work/findings"

status=0
if [ "$seconds" -gt 0 ]; then
  cp "$seeds"/* "$work/corpus/"
  "$bin" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
    "$work/corpus" >"$work/log" 2>&1 || status=$?
else
  "$bin" "$seeds" >"$work/log" 2>&1 || status=$?
fi
grep '^fuzz_differential' "$work/log" | grep -v ' divergence on ' || true
divergences=$(grep -c ' divergence on ' "$work/log" || true)
echo "divergence lines: $divergences (finding files in $CROSSCHECK_FINDINGS_DIR)"

fail() {
  echo "FAIL: $*"
  echo "--- log ($work/log, last 40 lines)"
  tail -40 "$work/log"
  exit 1
}
[ "$status" -eq 0 ] || fail "exit status $status"
handed=$(sed -n 's/.*, \([0-9]*\) handed to the sender.*/\1/p' "$work/log")
received=$(sed -n 's/^fuzz_differential sender: \([0-9]*\) inputs received.*/\1/p' "$work/log")
[ -n "$handed" ] || fail "no summary line from the fuzzing process"
[ -n "$received" ] || fail "no summary line from the sender"
[ "$handed" -gt 0 ] || fail "no input was handed to the sender"
[ "$received" -eq "$handed" ] || fail "the sender received $received of $handed inputs"
if [ -d "$CROSSCHECK_FINDINGS_DIR" ]; then
  python3 - "$CROSSCHECK_FINDINGS_DIR" <<'PY' || fail "a finding file is not complete JSON"
import glob, json, sys
for name in glob.glob(sys.argv[1] + "/*.json"):
    with open(name) as f:
        d = json.load(f)
    assert d["root"] and d["divergences"], name
PY
fi
echo "PASS: $handed inputs handed to the sender, all decoded by $CROSSCHECK_ADAPTERS"
