#!/usr/bin/env bash
# rules_cli.sh BUILD_DIR: `crosscheck rules` (the rule catalogue, docs/rules.md): the shipped catalogue
# is listed whole with its counts; for a layer-3 fuzz run of the stand-in client fake-a (not an SDK),
# the rules checked through host rules show how often the run exercised them, and every finding names
# at least one rule it breaks; bad input is exit 2 naming the file or flag.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
CAT="$ROOT/contract/rule-catalogue.json"
n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['rules']))" "$CAT")
"$CC" rules >"$OUT/all.txt" 2>&1
rc=$?
check "crosscheck rules: exit 0 (got $rc)" "[ $rc = 0 ]"
check "every rule of the catalogue is listed, and counted ($n)" \
  "[ \$(grep -cE '^[a-z0-9]+\.[a-z0-9.-]+ +(structural|canonical|contextual|facade) ' '$OUT/all.txt') = $n ] && grep -q '^$n rules:' '$OUT/all.txt'"
check "a rule that is not checked says why" "grep -q '^  facade.elicitation.form-only (unreachable): ' '$OUT/all.txt'"

"$CC" fuzz --layers contextual --client-config "$ROOT/tests/fake_clients/clients.json" --clients fake-a \
  --adapters cpp --runs 1 --scenario-batches 1 --scenario-batch 24 --seed 4 --out "$OUT/l3" >"$OUT/l3.log" 2>&1
"$CC" rules --layer contextual "$OUT/l3" >"$OUT/l3.txt" 2>&1
rc=$?
cat "$OUT/l3.txt" | head -5
check "on a run folder: exit 0 (got $rc)" "[ $rc = 0 ]"
check "the host rules' coverage shows as exercised counts" \
  "grep -qE '^host.id-correlation +contextual +checked +exercised [1-9]' '$OUT/l3.txt'"
check "every finding of the run breaks some rule" "python3 - '$OUT/l3' '$OUT/l3.txt' <<'PY'
import glob, os, sys
names = {os.path.basename(f) for f in glob.glob(sys.argv[1] + '/findings/*.json') if not f.endswith('.min.json')}
assert names, 'no finding'
text = open(sys.argv[2]).read()
missing = [n for n in names if 'broken by ' + n not in text]
assert not missing, missing
PY"

"$CC" rules --layer nope >"$OUT/bad1.txt" 2>&1
check "an unknown --layer: exit 2 naming the layers" "[ $? = 2 ] && grep -q \"layer 'nope'\" '$OUT/bad1.txt'"
echo '{"format":"crosscheck-rule-catalogue/1","rules":[{"id":"x.y","layer":"canonical","rule":"r","status":"partial","checks":{}}]}' >"$OUT/c.json"
"$CC" rules --catalogue "$OUT/c.json" >"$OUT/bad2.txt" 2>&1
check "a catalogue that breaks its schema: exit 2 naming the file and the field" \
  "[ $? = 2 ] && grep -q '$OUT/c.json' '$OUT/bad2.txt' && grep -q 'why' '$OUT/bad2.txt'"
finish
