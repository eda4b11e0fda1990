#!/usr/bin/env bash
# scenarios_state_real.sh BUILD_DIR: the rows of tests/data/scenarios/state.json (a stop or continue
# accepted earlier in the same occurrence, with its instructions and injections) on the reference host
# and the real interop clients (Python; Rust when adapters/rust/install.sh built it). The reference
# and Python meet every row but one, where Python alone is blamed; Rust meets the three rows whose ids
# its client names, and is blamed, not the others, on each row whose incoming state it drops
# (docs/findings.md, section 14). Before the reference modelled state.flow, the first three rows blamed
# both SDKs.
source "$(dirname "$0")/lib.sh"
F="$ROOT/tests/data/scenarios/state.json"
clients=python
if [ -x "$ROOT/adapters/rust/interop/bin/interop" ]; then
  clients=python,rust
else
  echo "NOTE: the Rust interop client is not built (adapters/rust/install.sh); running python only"
fi
"$CC" scenarios run --clients "$clients" --batch-deadline 600s --out "$OUT/o" "$F" >"$OUT/run.txt" 2>&1
status=$?
cat "$OUT/run.txt"
line() { grep -E "^$1 " "$OUT/run.txt"; }
for id in prior-accepted-stop-empty prior-accepted-stop-allow prior-accepted-stop-return; do
  check "$id: every column meets the row (an earlier stop: not executed, flow stop), no finding" \
    'line $id | grep -qE "^$id +passed +passed( +passed)? +ok$"'
done
check "the reference meets every row" \
  '[ "$(grep -cE "^prior-[a-z-]+ +passed " "$OUT/run.txt")" = 10 ]'
check "python meets every row but prior-flow-none" \
  '[ "$(grep -cE "^prior-[a-z-]+ +passed +passed" "$OUT/run.txt")" = 9 ]'
check "prior-flow-none: python reports flow none, and is the one blamed" \
  'line prior-flow-none | grep -q "contextual-result: python differs from the reference on flow"'
check "exit 1: contract findings" '[ $status = 1 ]'
if [ "$clients" = python,rust ]; then
  check "prior-stop-tool: the rust client refuses an earlier stop under another id, and is the one blamed" \
    'line prior-stop-tool | grep -q "cpp=derived, python=derived, rust=rejected (deviating from the reference: rust)"'
  for id in prior-stop-beats-continue prior-stop-neutral-finish prior-continue-then-continue \
            prior-continue-then-stop prior-injections-first; do
    check "$id: rust drops the incoming state, and is the one blamed" \
      'line $id | grep -q "contextual-result: rust differs from the reference on"'
  done
  check "no difference blames python but prior-flow-none" \
    '[ "$(grep -c "python differs\|python=rejected" "$OUT/run.txt")" = 1 ]'
else
  check "no finding on any row but prior-flow-none" '[ "$(ls "$OUT/o/findings" | wc -l)" = 1 ]'
fi
finish
