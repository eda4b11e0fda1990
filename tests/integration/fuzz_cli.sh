#!/usr/bin/env bash
# fuzz_cli.sh BUILD_DIR: end-to-end checks of `crosscheck fuzz` with the real binary.
#  1. a seeded fault (unknown enum value reported as an error) is found, in the acceptance class;
#  2. a run resumes from its folder, and a folder of another configuration is refused (exit 2);
#  3. kill -9 in the middle of a run loses no finding, and the run resumes;
#  4. bad durations exit 2 with the accepted forms;
#  5. Ctrl-C while requests are in flight: the abandoned requests never become findings.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
PROXY="python3 $ROOT/tests/fake_adapters/faulty_proxy.py --fault unknown-enum-error -- $CC serve-adapter"

# 1. The seeded fault is found, in the right class, naming the faulty implementation.
"$CC" fuzz --runs 3000 --seed 3 --adapters cpp --adapter "faulty=$PROXY" --out "$OUT/fault" >"$OUT/fault.log" 2>&1
rc=$?
check "seeded fault makes the run fail (exit 1)" "[ $rc = 1 ]"
check "seeded fault is an acceptance divergence with unknown_enum" "python3 - '$OUT/fault/findings' <<'PY'
import glob, json, sys
hits = 0
for f in glob.glob(sys.argv[1] + '/*.json'):
    d = json.load(open(f))
    for dv in d['divergences']:
        if dv['class'] == 'acceptance' and 'faulty' in dv['implementations'] and 'unknown_enum' in dv['detail']:
            hits += 1
sys.exit(0 if hits else 1)
PY"

# 2. Resume, and refusal of a foreign folder.
"$CC" fuzz --runs 400 --seed 5 --adapters cpp --out "$OUT/resume" >"$OUT/r1.log" 2>&1
"$CC" fuzz --runs 800 --seed 5 --adapters cpp --out "$OUT/resume" >"$OUT/r2.log" 2>&1
check "second run on the same folder resumes" "grep -q 'resuming' '$OUT/r2.log'"
# The corpus folder is bounded per root (--corpus-limit); the rest stays in memory, the run goes on.
"$CC" fuzz --runs 3000 --seed 5 --adapters cpp --root effect --corpus-limit 7 --out "$OUT/limit" >"$OUT/l1.log" 2>&1
rc=$?
check "--corpus-limit 7 keeps 7 files in corpus/effect/ (exit $rc)" \
  "[ $rc = 0 -o $rc = 1 ] && [ \$(ls '$OUT/limit/corpus/effect' | wc -l) = 7 ]"
"$CC" fuzz --runs 3000 --seed 5 --adapters cpp --root effect --out "$OUT/nolimit" >"$OUT/l2.log" 2>&1
check "without it the same run keeps more" "[ \$(ls '$OUT/nolimit/corpus/effect' | wc -l) -gt 7 ]"
"$CC" fuzz --runs 100 --seed 6 --adapters cpp --out "$OUT/resume" >"$OUT/r3.log" 2>&1
rc=$?
check "a folder of another configuration is refused with exit 2" "[ $rc = 2 ] && grep -q 'different configuration' '$OUT/r3.log'"

# 3. kill -9 mid-run: every finding written is complete, and the run resumes.
# The proxy's command line carries a mark of this test's own (a harmless -X option), so the clean-up
# below kills only the proxies this test started: ctest runs other tests at the same time, and
# ci_scripts' pull-request.sh has "faulty_proxy.py" in its own command line.
MARK="$OUT/kill-pycache"
KPROXY="python3 -X pycache_prefix=$MARK $ROOT/tests/fake_adapters/faulty_proxy.py --fault unknown-enum-error -- $CC serve-adapter"
"$CC" fuzz --time 60s --seed 3 --adapters cpp --adapter "faulty=$KPROXY" --out "$OUT/kill" >"$OUT/k1.log" 2>&1 &
pid=$!
# Long enough for the first findings on a loaded machine at both layers (each adapter's canonical
# validator is built at its first validate request).
sleep 10
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
pkill -9 -f "pycache_prefix=$MARK" 2>/dev/null
before=$(ls "$OUT/kill/findings" 2>/dev/null | grep -c '\.json$')
check "findings were written before the kill" "[ ${before:-0} -gt 0 ]"
check "no partial finding files after kill -9" "python3 - '$OUT/kill/findings' <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + '/*.json'):
    json.load(open(f))
sys.exit(0)
PY"
"$CC" fuzz --time 3s --seed 3 --adapters cpp --adapter "faulty=$KPROXY" --out "$OUT/kill" >"$OUT/k2.log" 2>&1
after=$(ls "$OUT/kill/findings" | grep -c '\.json$')
check "the killed run resumes and keeps its findings" "grep -q 'resuming' '$OUT/k2.log' && [ $after -ge $before ]"

# 4. Bad durations.
"$CC" fuzz --time 0 --adapters cpp --out "$OUT/bad" >"$OUT/b.log" 2>&1
rc=$?
check "--time 0 exits 2 naming the accepted forms" "[ $rc = 2 ] && grep -q '30s, 5m, 1h' '$OUT/b.log'"
"$CC" fuzz --time 5parsecs --adapters cpp --out "$OUT/bad" >"$OUT/b2.log" 2>&1
rc=$?
check "--time 5parsecs exits 2" "[ $rc = 2 ]"

# 5. SIGINT with slow requests in flight: what the pool abandoned is not compared.
SLOW="python3 $ROOT/tests/fake_adapters/fake_adapter.py --always SLOW25"
"$CC" fuzz --time 60s --seed 9 --adapters cpp --adapter "slow=$SLOW" --out "$OUT/int" >"$OUT/i.log" 2>&1 &
pid=$!
sleep 7
kill -INT $pid
wait $pid
check "an interrupted run says so" "grep -q 'interrupted' '$OUT/i.log'"
check "no finding records an abandoned request" "python3 - '$OUT/int/findings' <<'PY'
import glob, json, sys
files = glob.glob(sys.argv[1] + '/*.json')
bad = [f for f in files for r in json.load(open(f))['results'] if r.get('message') == 'interrupted']
print(len(files), 'findings,', len(bad), 'with an abandoned request')
sys.exit(1 if bad or not files else 0)
PY"

finish
