#!/usr/bin/env bash
# report_cli.sh BUILD_DIR: end-to-end checks of the event log and `crosscheck report` with the real binary.
#  1. a fuzz run with a seeded fault writes events.jsonl (start, progress, finding, end) and its reports
#     into RUN/report/, and says where they are;
#  2. junit.xml parses with Python's xml.etree, one test case per bucket, a failure per contract bucket,
#     and every finding file's replay command is in every report;
#  3. a resumed run appends to events.jsonl and its time continues;
#  4. `crosscheck report` options, and incomplete or foreign folders exit 2 naming the file;
#  5. which baseline a report uses: the check a `fuzz --baseline` recorded in the folder by default,
#     sorted again when it misses buckets, none with --no-baseline, and the status says which.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
PROXY="python3 $ROOT/tests/fake_adapters/faulty_proxy.py --fault unknown-enum-error -- $CC serve-adapter"
RUN="$OUT/run"

# 1. A run with findings: event log and reports.
"$CC" fuzz --runs 2000 --seed 3 --adapters cpp --adapter "faulty=$PROXY" --out "$RUN" >"$OUT/f1.log" 2>&1
rc=$?
check "seeded fault makes the run fail (exit 1)" "[ $rc = 1 ]"
check "fuzz prints where the reports are" "grep -q 'reports: $RUN/report/report.html $RUN/report/junit.xml $RUN/report/summary.md' '$OUT/f1.log'"
check "fuzz wrote report.html, junit.xml, summary.md, buckets.jsonl" \
  "[ -s '$RUN/report/report.html' ] && [ -s '$RUN/report/junit.xml' ] && [ -s '$RUN/report/summary.md' ] && [ -s '$RUN/report/buckets.jsonl' ]"
check "events.jsonl: start, progress, a finding per file, end; t never goes back" "python3 - '$RUN' <<'PY'
import json, os, sys
run = sys.argv[1]
ev = [json.loads(l) for l in open(os.path.join(run, 'events.jsonl'))]
names = [e['event'] for e in ev]
# The reducer runs after the campaign and appends its "reduced" events after "end".
core = [n for n in names if n != 'reduced']
assert names[0] == 'start' and core[-1] == 'end', names
ev = [e for e in ev if e['event'] != 'reduced']
assert ev[0]['resumed'] is False and ev[0]['implementations'] == ['cpp', 'faulty'], ev[0]
assert 'progress' in names
ts = [e['t'] for e in ev]
assert ts == sorted(ts), ts
files = sorted(e['file'] for e in ev if e['event'] == 'finding')
on_disk = sorted('findings/' + f for f in os.listdir(os.path.join(run, 'findings')) if f.endswith('.json') and not f.endswith('.min.json'))
assert files == on_disk and files, (files, on_disk)
p = [e for e in ev if e['event'] == 'progress'][-1]
for k in ('generated', 'sent', 'divergentInputs', 'contractInputs', 'buckets', 'coverage', 'inputsPerSecond', 'sentPerSecond'):
    assert k in p, k
summary = json.load(open(os.path.join(run, 'summary.json')))
assert ev[-1]['exitCode'] == 1 and ev[-1]['generated'] == summary['generated'] == 2000, ev[-1]
assert summary['format'] == 'crosscheck-summary/1' and summary['skewTable'] and summary['implementations'][1]['name'] == 'faulty'
PY"

# 2. JUnit validity and contents; replay commands everywhere.
check "junit.xml parses, one case per bucket, failures = contract buckets" "python3 - '$RUN' <<'PY'
import json, os, sys, xml.etree.ElementTree as ET
run = sys.argv[1]
suite = ET.parse(os.path.join(run, 'report', 'junit.xml')).getroot().find('testsuite')
buckets = [json.loads(l) for l in open(os.path.join(run, 'report', 'buckets.jsonl'))]
cases = [c for c in suite.iter('testcase') if not c.get('classname') == 'crosscheck.root']
assert len(cases) == len(buckets) > 0, (len(cases), len(buckets))
failing = [b for b in buckets if b['fails']]
assert len(suite.findall('testcase/failure')) == len(failing) > 0
assert int(suite.get('failures')) == len(failing) and int(suite.get('tests')) == len(list(suite.iter('testcase')))
for c in cases:
    assert c.get('name').split(' ')[0] in {b['bucket'] for b in buckets}
PY"
check "every report names every finding file's replay command" "python3 - '$RUN' <<'PY'
import os, sys
run = sys.argv[1]
reports = {n: open(os.path.join(run, 'report', n), encoding='utf-8').read() for n in ('report.html', 'junit.xml', 'summary.md')}
for f in os.listdir(os.path.join(run, 'findings')):
    if f.endswith('.json'):
        for name, text in reports.items():
            assert 'crosscheck replay ' + os.path.join(run, 'findings', f) in text, (name, f)
PY"

check "minimized findings (.min.json) are the payloads the HTML report shows" "python3 - '$RUN' <<'PY'
import os, sys
run = sys.argv[1]
mins = [f for f in os.listdir(os.path.join(run, 'findings')) if f.endswith('.min.json')]
html = open(os.path.join(run, 'report', 'report.html'), encoding='utf-8').read()
assert all(('crosscheck replay ' + os.path.join(run, 'findings', m)) in html for m in mins)
assert not mins or 'minimized from' in html
PY"

# 3. Resume: the log is appended to and its clock continues.
end1=$(tail -1 "$RUN/events.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["t"])')
"$CC" fuzz --runs 2500 --seed 3 --adapters cpp --adapter "faulty=$PROXY" --out "$RUN" >"$OUT/f2.log" 2>&1
check "a resumed run appends a start (resumed) after the first end, and t continues" "python3 - '$RUN' '$end1' <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1] + '/events.jsonl')]
assert [e['t'] for e in ev] == sorted(e['t'] for e in ev)
ev = [e for e in ev if e['event'] != 'reduced']
starts = [i for i, e in enumerate(ev) if e['event'] == 'start']
assert len(starts) == 2 and ev[starts[1]]['resumed'] is True, starts
assert ev[starts[1] - 1]['event'] == 'end'
assert ev[starts[1]]['t'] >= float(sys.argv[2]) > 0
assert ev[-1]['event'] == 'end' and ev[-1]['generated'] == 2500
PY"

# 4. The report command.
"$CC" report "$RUN" --format junit,markdown --out "$OUT/r" >"$OUT/r.log" 2>&1
rc=$?
check "report --format junit,markdown writes just those" "[ $rc = 0 ] && [ -s '$OUT/r/junit.xml' ] && [ -s '$OUT/r/summary.md' ] && [ ! -e '$OUT/r/report.html' ]"
"$CC" report "$RUN" --format pdf >"$OUT/r2.log" 2>&1
check "an unknown format exits 2 naming it" "[ $? = 2 ] && grep -q \"unknown format 'pdf'\" '$OUT/r2.log'"
# A baseline that knows every failing bucket: they become known (skipped in JUnit), the status passes.
python3 - "$RUN" "$OUT/known.json" <<'PY'
import json, sys
buckets = [json.loads(l) for l in open(sys.argv[1] + '/report/buckets.jsonl')]
# Each entry names the bucket's own implementations: besides the planted fault's buckets, a run at
# both layers can meet the protocol's oneOf-vs-union layer-inconsistency of cpp itself (findings.md §10).
entries = [{"id": "planted-%d" % i, "implementations": b["implementations"], "bucket": b["bucket"],
            "reason": "the planted fault <b>x</b>", "link": "tests/fake_adapters/faulty_proxy.py"}
           for i, b in enumerate(buckets) if b["fails"]]
json.dump({"format": "crosscheck-baseline/1", "entries": entries}, open(sys.argv[2], "w"))
PY
"$CC" report "$RUN" --baseline "$OUT/known.json" --out "$OUT/k" >"$OUT/k.log" 2>&1
rc=$?
check "report --baseline: known buckets are skipped, the run passes" "[ $rc = 0 ] && grep -q 'passed: no new contract divergence' '$OUT/k.log' && python3 - '$OUT/k' <<'PY'
import json, sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1] + '/junit.xml').getroot().find('testsuite')
assert suite.get('failures') == '0', suite.attrib
known = [c for c in suite.iter('testcase') if c.find('skipped') is not None and 'known to the baseline (planted-' in c.find('skipped').get('message')]
buckets = [json.loads(l) for l in open(sys.argv[1] + '/buckets.jsonl')]
assert len(known) == sum(b['known'] for b in buckets) > 0
assert 'the planted fault &lt;b&gt;x&lt;/b&gt;' in open(sys.argv[1] + '/report.html').read()
PY"
"$CC" report "$RUN" --baseline "$OUT/nowhere.json" >"$OUT/k2.log" 2>&1
check "report --baseline with a missing file exits 2" "[ $? = 2 ]"

# 5. Which baseline a report uses (docs/reports.md). Without one, the status says so.
"$CC" report "$RUN" --out "$OUT/n" >"$OUT/n.log" 2>&1
check "no baseline anywhere: FAILED, and the status says it was not checked against a baseline" \
  "grep -q 'FAILED: .* contract divergences, not checked against a baseline' '$OUT/n.log' && grep -q 'baseline: none' '$OUT/n.log'"
# A run made with --baseline (resumed at its end: no new input, then the check and the reports).
cp -r "$RUN" "$OUT/b"
"$CC" fuzz --runs 2500 --seed 3 --adapters cpp --adapter "faulty=$PROXY" --baseline "$OUT/known.json" --out "$OUT/b" >"$OUT/fb.log" 2>&1
rc=$?
check "fuzz --baseline: every bucket known, exit 0, its own reports pass" \
  "[ $rc = 0 ] && [ -s '$OUT/b/baseline-check.json' ] && grep -q 'passed: no new contract divergence' '$OUT/b/report/summary.md'"
"$CC" report "$OUT/b" --out "$OUT/b1" >"$OUT/b1.log" 2>&1
check "report RUN_DIR of a run made with --baseline uses the recorded check by default" \
  "grep -q 'passed: no new contract divergence' '$OUT/b1.log' && grep -q 'the check recorded in baseline-check.json' '$OUT/b1.log' && grep -q 'failures=\"0\"' '$OUT/b1/junit.xml'"
"$CC" report --no-baseline "$OUT/b" --out "$OUT/b2" >"$OUT/b2.log" 2>&1
check "--no-baseline ignores the recorded check: the known buckets fail again" \
  "grep -q 'FAILED: .*not checked against a baseline' '$OUT/b2.log' && ! grep -q 'failures=\"0\"' '$OUT/b2/junit.xml'"
# A check that misses a bucket (found after it): sorted again against the baseline it names ...
python3 - "$OUT/b/baseline-check.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c['known'] = c['known'][1:]
json.dump(c, open(sys.argv[1], 'w'))
PY
"$CC" report "$OUT/b" --out "$OUT/b3" >"$OUT/b3.log" 2>&1
check "a recorded check that misses a bucket: every bucket sorted again against its baseline" \
  "grep -q 'passed: no new contract divergence' '$OUT/b3.log' && grep -q 'does not list 1 bucket(s)' '$OUT/b3.log' && grep -q 'sorted again' '$OUT/b3.log'"
# ... and, when that file is gone, the missed bucket counts as new.
mv "$OUT/known.json" "$OUT/known.moved"
"$CC" report "$OUT/b" --out "$OUT/b4" >"$OUT/b4.log" 2>&1
rc=$?
check "... and when its baseline cannot be read, the missed bucket is new and fails (the report still exits 0)" \
  "[ $rc = 0 ] && grep -q 'FAILED: 1 new bucket' '$OUT/b4.log' && grep -q 'cannot be read here' '$OUT/b4.log' && grep -q 'new, not in the baseline' '$OUT/b4/junit.xml'"
mv "$OUT/known.moved" "$OUT/known.json"
cp -r "$RUN" "$OUT/bad"
rm -r "$OUT/bad/summary.json" "$OUT/bad/report"
"$CC" report "$OUT/bad" >"$OUT/b1.log" 2>&1
check "a run without summary.json exits 2 naming it" "[ $? = 2 ] && grep -q 'bad/summary.json: missing' '$OUT/b1.log'"
"$CC" report --partial "$OUT/bad" >"$OUT/b2.log" 2>&1
check "--partial reports it anyway" "[ $? = 0 ] && grep -q INCOMPLETE '$OUT/b2.log' && [ -s '$OUT/bad/report/report.html' ]"
f=$(ls "$OUT/bad/findings" | grep -v min | head -1)
printf '{"format":"crosscheck-finding/7"}' >"$OUT/bad/findings/$f"
"$CC" report --partial "$OUT/bad" >"$OUT/b3.log" 2>&1
check "a finding of another version exits 2 naming the file" "[ $? = 2 ] && grep -q '$f' '$OUT/b3.log'"
printf '{"format":"crosscheck-fuzz/0"}' >"$OUT/bad/run.json"
"$CC" report --partial "$OUT/bad" >"$OUT/b4.log" 2>&1
check "a run.json of another version exits 2 naming it" "[ $? = 2 ] && grep -q 'run.json: /format: expected .crosscheck-fuzz/1. (format version), found .crosscheck-fuzz/0.' '$OUT/b4.log'"
"$CC" report "$OUT/nowhere" >"$OUT/b5.log" 2>&1
check "a missing folder exits 2" "[ $? = 2 ]"

finish
