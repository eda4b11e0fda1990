#!/usr/bin/env bash
# fault_injection.sh BUILD_DIR [SECTIONS]: fault injection on crosscheck itself, end to end
# (docs/robustness.md), with tests/fake_adapters/misbehaving_adapter.py beside the in-process C++
# decoder:
#  1. `crosscheck run` against each misbehaving adapter: the faulty payload gets a finding of the
#     right class (crash, timeout, protocol) naming the adapter, no other payload does, in bounded
#     time; the 100 MB line in bounded memory;
#  2. adapters that fail in the handshake: exit 3 with the reason;
#  3. `crosscheck fuzz` against misbehaving adapters: ends on time, findings complete;
#  4. kill -9 of `crosscheck fuzz` and a resume (partial temporary files are not findings);
#  5. an output folder that fills up: exit 2 naming the path, earlier findings intact, no partial
#     files (a small tmpfs when it can be mounted, and always RLIMIT_FSIZE with SIGXFSZ ignored).
# SECTIONS (default all): "run" (1, 2), "fuzz" (3), "resume" (4), "disk" (5); ctest runs them as
# separate tests so that each stays short.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
BAD="python3 $ROOT/tests/fake_adapters/misbehaving_adapter.py"
MOUNTED=""
cleanup() {  # lib.sh's clean-up, after unmounting the small tmpfs of section 5
  [ -n "$MOUNTED" ] && umount "$MOUNTED" 2>/dev/null
  [ -n "${KEEP:-}" ] && echo "kept $OUT" || rm -rf "$OUT"
}
trap cleanup EXIT
now() { date +%s.%N; }
within() { python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) < float(sys.argv[3]) else 1)" "$@"; }

# Every findings/*.json parses as a complete crosscheck-finding/1; no temporary file is left over.
# Prints the number of findings. Extra argument: the folder must hold at least that many.
# ALLOW_TMP=1: right after a kill -9, an interrupted write may have left its temporary file.
findings_complete() {
  python3 - "$1" "${2:-0}" "${ALLOW_TMP:-}" <<'PY'
import base64, glob, json, os, sys
folder, least, allow_tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
files = sorted(glob.glob(os.path.join(folder, "*.json")))
for f in files:
    d = json.load(open(f))
    assert d["format"] == "crosscheck-finding/1", f
    assert base64.b64decode(d["input"]["base64"]) is not None and d["divergences"] and d["results"], f
    assert d["replay"].startswith("crosscheck replay"), f
left = [n for n in os.listdir(folder) if ".tmp" in n] if os.path.isdir(folder) else []
assert allow_tmp or not left, "partial files left: %s" % left
print(len(files))
sys.exit(0 if len(files) >= least else 1)
PY
}

# Payloads: six valid intercept_requests (the C++ decoder accepts them), the third one marked.
PAY="$OUT/payloads"
mkdir -p "$PAY"
for i in 0 1 2 3 4 5; do
  tag=fine$i; [ $i = 2 ] && tag=FAULT$i
  sed "0,/\"evt_7f21\"/s//\"$tag\"/" "$ROOT/corpus/examples/intercept_request.tool-before.json" \
    >"$PAY/intercept_request.$i.json"
done

section_run() {
# 1. crosscheck run: the faulty payload, and only it, gets a finding of the right class.
run_case() {  # behaviour class [extra adapter args]
  local b=$1 cls=$2 extra=${3:-} dir="$OUT/run-$1" t0 rc
  t0=$(now)
  python3 - "$dir.rss" "$CC" run --adapters cpp --adapter "bad=$BAD --behaviour $b $extra" --deadline 1 \
    --out "$dir" "$PAY" >"$dir.log" 2>&1 <<'PY'
import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
open(sys.argv[1], "w").write("%d\n" % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024))
sys.exit(rc)
PY
  rc=$?
  check "run/$b: exit 1, within 20 s (rc $rc, peak RSS $(cat "$dir.rss" 2>/dev/null) MB)" \
    "[ $rc = 1 ] && within $t0 $(now) 20"
  # `run` writes its findings straight into --out.
  check "run/$b: the marked payload is a '$cls' finding of 'bad', nothing else has a harness class" "python3 - '$dir' '$cls' <<'PY'
import glob, json, sys
hits, stray = 0, []
for f in glob.glob(sys.argv[1] + '/*.json'):
    d = json.load(open(f))
    marked = 'FAULT2' in (d['input']['text'] or '')
    for dv in d['divergences']:
        if dv['class'] in ('crash', 'timeout', 'protocol'):
            if marked and dv['class'] == sys.argv[2] and dv['implementations'] == ['bad']:
                hits += 1
            else:
                stray.append((f, dv['class']))
print(hits, stray)
sys.exit(0 if hits == 1 and not stray else 1)
PY"
  check "run/$b: every finding complete" "findings_complete '$dir' 1 >/dev/null"
}
run_case crash crash
run_case hang timeout
run_case stall timeout "--stall-ms 4000"
run_case hang-forever timeout
run_case half-line-exit crash
run_case half-line-hang timeout
run_case long-line protocol
check "run/long-line: a 100 MB answer line is cut off at the 64 MiB limit" \
  "grep -q 'longer than 67108864 bytes' '$OUT/run-long-line/'*.json"
check "run/long-line: peak RSS under 400 MB" "[ \$(cat '$OUT/run-long-line.rss') -lt 400 ]"
run_case twice protocol
run_case other-id protocol
run_case unknown-id protocol
run_case garbage protocol
run_case close-stdout protocol

for b in stderr-flood flood-while-answering; do
  t0=$(now)
  "$CC" run --adapters cpp --adapter "bad=$BAD --behaviour $b" --out "$OUT/run-$b" "$PAY" >"$OUT/run-$b.log" 2>&1
  rc=$?
  check "run/$b: 300 MB of stderr, every payload answered, no finding (rc $rc)" \
    "[ $rc = 0 ] && [ ! -e '$OUT/run-$b/findings' -o -z \"\$(ls -A '$OUT/run-$b/findings' 2>/dev/null)\" ] && within $t0 $(now) 30"
done

# 2. Failures in the handshake are start errors (exit 3) that say what happened.
for b in exit-before-hello partial-hello; do
  "$CC" run --adapters cpp --adapter "bad=$BAD --behaviour $b" --out "$OUT/run-$b" "$PAY" >"$OUT/run-$b.log" 2>&1
  rc=$?
  check "run/$b: exit 3 naming the handshake" \
    "[ $rc = 3 ] && grep -q \"ERROR: adapter bad could not be started: adapter 'bad': exited during the handshake\" '$OUT/run-$b.log'"
done
t0=$(now)
"$CC" run --adapters cpp --adapter "bad=$BAD --behaviour exit-after-hello" --out "$OUT/run-eah" "$PAY" \
  >"$OUT/run-eah.log" 2>&1
rc=$?
check "run/exit-after-hello: ends within 15 s with a start error or crash findings (rc $rc)" \
  "within $t0 $(now) 15 && { [ $rc = 3 ] || { [ $rc = 1 ] && [ \$(findings_complete '$OUT/run-eah') = 6 ]; }; }"

}

section_fuzz() {
# 3. crosscheck fuzz against adapters that misbehave every so often: the run ends on time with
# findings of the right class, all complete.
fuzz_case() {  # name class adapter-args [fuzz-args]
  local dir="$OUT/fuzz-$1" t0 rc
  t0=$(now)
  "$CC" fuzz --time 2s --seed 4 --root intercept_request --deadline 0.5 --adapters cpp ${4:---reduce-budget 0} \
    --adapter "bad=$BAD $3" --out "$dir" >"$dir.log" 2>&1
  rc=$?
  check "fuzz/$1: exit 1 within 30 s (rc $rc, $(python3 -c "print(round($(now) - $t0, 1))") s)" \
    "[ $rc = 1 ] && within $t0 $(now) 30"
  check "fuzz/$1: '$2' findings of 'bad', every finding complete" \
    "has_class '$dir/findings' $2 && findings_complete '$dir/findings' 1 >/dev/null && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$dir/summary.json'"
}
has_class() {  # folder class: some finding has a divergence of that class naming only 'bad'
  python3 - "$1" "$2" <<'PY'
import glob, json, sys
sys.exit(0 if any(dv["class"] == sys.argv[2] and dv["implementations"] == ["bad"]
                  for f in glob.glob(sys.argv[1] + "/*.json") for dv in json.load(open(f))["divergences"]) else 1)
PY
}
fuzz_case crash crash "--behaviour crash --after 40" "--reduce-budget 300"  # the reducer meets crashes too
# The faults come after 30 inputs: a 2 s run on a loaded 2-core machine reaches only about 80.
fuzz_case hang timeout "--behaviour hang --after 30"
fuzz_case hang-all timeout "--behaviour hang --always"
fuzz_case long-line protocol "--behaviour long-line --after 30"
fuzz_case close-stdout protocol "--behaviour close-stdout --after 30"

}

section_resume() {
# 4. kill -9 in the middle of a fuzz run, then resume.
K="$OUT/kill"
"$CC" fuzz --time 60s --seed 11 --root intercept_request --adapters cpp \
  --adapter "bad=$BAD --behaviour none --pid-file $OUT/kill.pids" --out "$K" >"$OUT/k1.log" 2>&1 &
pid=$!
for _ in $(seq 100); do  # until a state save and a few findings are on disk (at most 20 s)
  [ -f "$K/state.json" ] && [ "$(ls "$K/findings" 2>/dev/null | grep -c '\.json$')" -ge 3 ] && break
  sleep 0.2
done
sleep 1
kill -9 $pid
wait $pid 2>/dev/null
before=$(ALLOW_TMP=1 findings_complete "$K/findings")
check "kill -9: findings written before the kill are complete (${before:-none})" "[ '${before:-0}' -ge 3 ]"
iter=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iterations"])' "$K/state.json")
corpus=$(find "$K/corpus" -type f ! -name '.*' | wc -l)
survivors=""
for _ in $(seq 50); do
  survivors=""
  for p in $(cat "$OUT/kill.pids"); do kill -0 "$p" 2>/dev/null && survivors="$survivors $p"; done
  [ -z "$survivors" ] && break
  sleep 0.1
done
for p in $survivors; do kill -9 "$p" 2>/dev/null; done  # only the adapters this test started
check "kill -9: the adapters end by themselves (stdin EOF)" "[ -z '$survivors' ]"
# What a kill during a write leaves: temporary files. They are neither findings nor corpus entries.
printf '{"format":"crosscheck-finding/1","root":"intercept_req' >"$K/findings/.diverge-0000000000000000000000000000000000000000.json.tmp-2147483647"
printf '{"jsonrpc":"2.0","id":' >"$K/corpus/intercept_request/.0000000000000000000000000000000000000000.tmp-2147483647"
"$CC" fuzz --time 3s --seed 11 --root intercept_request --reduce-budget 0 --adapters cpp --adapter "bad=$BAD --behaviour none" \
  --out "$K" >"$OUT/k2.log" 2>&1
rc=$?
check "resume after kill -9: ends normally (rc $rc)" "[ $rc = 0 -o $rc = 1 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$K/summary.json'"
check "resume: iteration counter, corpus and findings read back (at $iter, $corpus entries, $before findings)" \
  "grep -q \"resuming $K at iteration $iter: $corpus corpus entries, $before findings\" '$OUT/k2.log'"
after_iter=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iterations"])' "$K/state.json")
check "resume: the run went on ($iter -> $after_iter iterations)" "[ $after_iter -gt $iter ]"
check "resume: the partial finding file of the dead writer was removed" \
  "[ ! -e '$K/findings/.diverge-0000000000000000000000000000000000000000.json.tmp-2147483647' ]"
after=$(findings_complete "$K/findings")
check "resume: every finding complete, none lost ($before -> ${after:-none})" "[ '${after:-0}' -ge '$before' ]"

}

section_disk() {
# 5. An output folder that fills up. The adapter answers normally at first (findings against the
# C++ decoder are written), then with a 10 MB error message, whose finding cannot be written.
full_disk_case() {  # name out-dir [limit-in-KiB for RLIMIT_FSIZE]
  local name=$1 dir=$2 limit=${3:-} rc
  local args=(fuzz --time 20s --seed 5 --root intercept_request --reduce-budget 0 --adapters cpp
    --adapter "bad=$BAD --behaviour bloat --after 60 --once --bloat-bytes 10000000" --out "$dir")
  if [ -n "$limit" ]; then
    (ulimit -f "$limit"; trap '' XFSZ; exec "$CC" "${args[@]}") >"$OUT/$name.log" 2>&1
  else
    "$CC" "${args[@]}" >"$OUT/$name.log" 2>&1
  fi
  rc=$?
  # Whichever write fails first (a finding, a corpus entry, state.json) is named.
  check "$name: exit 2 naming the file that could not be written (rc $rc)" \
    "[ $rc = 2 ] && grep -Eq 'ERROR: cannot write $dir/[^ ]+: (No space left on device|File too large)' '$OUT/$name.log'"
  local n
  n=$(findings_complete "$dir/findings")
  check "$name: the findings written before are complete (${n:-none}), no partial file anywhere" \
    "[ '${n:-0}' -ge 1 ] && [ -z \"\$(find '$dir' -name '*.tmp*')\" ]"
}
# RLIMIT_FSIZE works unprivileged: first prove the limit bites, so the case cannot pass vacuously.
(ulimit -f 2048; trap '' XFSZ; head -c 3000000 /dev/zero >"$OUT/probe") 2>/dev/null
probe_rc=$?
check "RLIMIT_FSIZE with SIGXFSZ ignored makes a 3 MB write fail" "[ $probe_rc != 0 ] && [ \$(stat -c %s '$OUT/probe') -le 2097152 ]"
full_disk_case full-disk-fsize "$OUT/fsize" 2048
# A real full filesystem when this runs as root (CI may not: then only the case above runs).
mkdir -p "$OUT/tmpfs"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=8m tmpfs "$OUT/tmpfs" 2>/dev/null; then
  MOUNTED="$OUT/tmpfs"
  full_disk_case full-disk-tmpfs "$OUT/tmpfs/run"
  umount "$OUT/tmpfs" && MOUNTED=""
else
  echo "NOTE tmpfs case not run (needs root and mount); the RLIMIT_FSIZE case covers a failing write"
fi

}

for section in ${2:-run fuzz resume disk}; do "section_$section"; done
finish
