#!/usr/bin/env bash
# scenarios_real.sh BUILD_DIR: crosscheck's own scenario rows (tests/data/scenarios/composition.json)
# on the real Python interop client, and the Rust one when adapters/rust/install.sh has built it.
# Every row must meet its expectation on the reference host (cpp, the first column) and on the Python
# client; the Rust client must agree with the reference on every row but the listed, recorded ones (the
# input placeholder at turn.finish.before is tolerated by rule; docs/scenarios.md, "Verdicts").
source "$(dirname "$0")/lib.sh"
F="$ROOT/tests/data/scenarios/composition.json"
clients=python
if [ -x "$ROOT/adapters/rust/interop/bin/interop" ]; then
  clients=python,rust
else
  echo "NOTE: the Rust interop client is not built (adapters/rust/install.sh); running python only"
fi
# Rows where the Rust 0.10.1 client rejects a response the reference and the Python client derive a
# result from, recorded and explained in docs/findings.md (section 7: its runtime wants a full
# continuation budget, maxContinuations included): checked to be exactly these; any other difference fails.
rust_known="finish-continue finish-stop-wins"
# The shipped baseline lists those rows (entries sdk-0.10.1-rust-continuation-budget*), so the run goes
# through --baseline as CI would run it: those buckets are known, any other fails.
"$CC" scenarios run --clients "$clients" --batch-deadline 600s --baseline "$ROOT/tests/data/baseline/known.json" --out "$OUT/o" "$F" >"$OUT/run.txt" 2>&1
status=$?
cat "$OUT/run.txt"
rows=$(/usr/bin/python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['scenarios']))" "$F")
n=$(echo "$clients" | tr ',' '\n' | wc -l)
check "the reference and the python client meet every row's expectation ($rows rows)" \
  '[ "$(grep -cE "^[a-z0-9-]+ +passed +passed( |$)" "$OUT/run.txt")" = $rows ]'
check "the receipts show each row's request received once" \
  '[ "$(cat "$OUT"/o/clients/python/batch-*/receipts.jsonl | grep -c "\"reply\":\"scripted\"")" = $rows ]'
if [ "$clients" = python ]; then
  check "exit 0: no finding" '[ $status = 0 ]'
  check "no finding file" '[ -z "$(ls "$OUT/o/findings")" ]'
  check "the summary counts the rows" 'grep -q "^$rows rows x 1 clients and the reference: 0 rows with findings" "$OUT/run.txt"'
  check "the baseline's entries are stale, not failing" 'grep -q "stale: entry sdk-0.10.1-rust-continuation-budget (rust)" "$OUT/run.txt"'
else
  k=$(echo $rust_known | wc -w)
  check "exit 0: the recorded rows are findings the baseline knows" '[ $status = 0 ]'
  check "... listed as known" 'grep -q "known: entry sdk-0.10.1-rust-continuation-budget (rust): 1 bucket, $k occurrences" "$OUT/run.txt"'
  check "rust passes every other row" \
    '[ "$(grep -cE "^[a-z0-9-]+ +passed +passed +passed( |$)" "$OUT/run.txt")" = $((rows - k)) ]'
  for id in $rust_known; do
    check "$id: the reference and python derive, rust rejects and is the one blamed" \
      'grep -qE "^$id +passed +passed +failed\(rejected\) +contextual-acceptance: cpp=derived, python=derived, rust=rejected \(deviating from the reference: rust\)" "$OUT/run.txt"'
  done
  check "the findings are those rows alone (one file each, an acceptance and an expectation divergence)" \
    '[ "$(ls "$OUT"/o/findings | wc -l)" = $k ]'
  check "the summary counts them" 'grep -q "^$rows rows x 2 clients and the reference: $k rows with findings, $((2 * k)) divergences in 2 buckets" "$OUT/run.txt"'
  "$CC" report "$OUT/o" >"$OUT/report.txt" 2>&1
  check "crosscheck report on the folder: passed (the recorded check), contextual layer" \
    'grep -q "^passed" "$OUT/report.txt" && grep -q "\"layer\":\"contextual\"" "$OUT/o/report/buckets.jsonl"'
fi
finish
