#!/usr/bin/env bash
# scenarios_real.sh BUILD_DIR: crosscheck's own scenario rows (tests/data/scenarios/composition.json)
# on the real Python interop client, and the Rust one when adapters/rust/install.sh has built it.
# Every row must meet its expectation on every client, and the clients must not differ (the input
# placeholder at turn.finish.before is tolerated by rule; docs/scenarios.md, "Verdicts").
source "$(dirname "$0")/lib.sh"
F="$ROOT/tests/data/scenarios/composition.json"
clients=python
if [ -x "$ROOT/adapters/rust/interop/bin/interop" ]; then
  clients=python,rust
else
  echo "NOTE: the Rust interop client is not built (adapters/rust/install.sh); running python only"
fi
"$CC" scenarios run --clients "$clients" --batch-deadline 600s --out "$OUT/o" "$F" >"$OUT/run.txt" 2>&1
status=$?
cat "$OUT/run.txt"
rows=$(/usr/bin/python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['scenarios']))" "$F")
n=$(echo "$clients" | tr ',' '\n' | wc -l)
check "exit 0: no finding" '[ $status = 0 ]'
check "every row passes on every client ($rows x $n)" '[ "$(grep -oE "(^| )passed( |$)" "$OUT/run.txt" | wc -l)" = $((rows * n)) ]'
check "no finding file" '[ ! -d "$OUT/o/findings" ]'
check "the summary counts the rows" 'grep -q "^$rows rows x $n clients: 0 findings" "$OUT/run.txt"'
check "the receipts show each row's request received once" \
  '[ "$(cat "$OUT"/o/clients/python/batch-*/receipts.jsonl | grep -c "\"reply\":\"scripted\"")" = $rows ]'
finish
