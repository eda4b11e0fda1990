#!/usr/bin/env bash
# run_keeps_its_time.sh BUILD_DIR: one stuck implementation neither stalls the others nor holds a run
# past its time (docs/robustness.md, "One stuck adapter does not stall the others").
#  1. beside cpp and the real Python adapter, an adapter that never answers payloads holding a long
#     string (tests/fake_adapters/withholding_proxy.py in front of the reference): the run ends within
#     --time + the reduction budget + one deadline (with a wide margin), the hang is a timeout
#     finding, the stuck adapter is left out of later inputs, and Python keeps receiving inputs at
#     least at half the rate of the same run without the stuck adapter;
#  2. layer 3 with a client that hangs on some generated rows (fake-hang) beside fake-a: the run
#     ends within its time plus the same budget, where the hung client batch once held it for the
#     whole batch deadline (120 s) and every split after it, and the hung row is a timeout finding.
# Each run's wall time is compared with a bound far above what it needs, never with a tight one.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
PY_ADAPTER_OK=1
[ -x "$ROOT/.venv/bin/python" ] || PY_ADAPTER_OK=0

sent_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['sent'])" "$1/summary.json"; }

if [ "$PY_ADAPTER_OK" = 1 ]; then
  STUCK="python3 $ROOT/tests/fake_adapters/withholding_proxy.py --min-string 120 -- $CC serve-adapter"
  "$CC" fuzz --time 12s --seed 4 --layers structural --adapters cpp,python --reduce-budget 0 \
    --out "$OUT/alone" >"$OUT/alone.log" 2>&1
  start=$(date +%s)
  "$CC" fuzz --time 12s --seed 4 --layers structural --adapters cpp,python --adapter "stuck=$STUCK" \
    --deadline 4 --out "$OUT/stuck" >"$OUT/stuck.log" 2>&1
  rc=$?
  took=$(($(date +%s) - start))
  # 12 s of fuzzing + at most 10 s of reduction + one 4 s deadline; 60 s leaves room for start-up.
  check "a run beside a stuck adapter ends in time (exit $rc, ${took}s)" "[ $rc -le 1 ] && [ $took -lt 60 ]"
  check "the hang is a timeout finding of the stuck adapter" "python3 - '$OUT/stuck/findings' <<'PY'
import glob, json, sys
hits = [f for f in glob.glob(sys.argv[1] + '/*.json')
        if any(d['class'] == 'timeout' and d['implementations'] == ['stuck'] for d in json.load(open(f))['divergences'])]
sys.exit(0 if hits else 1)
PY"
  check "the stuck adapter was left out of later inputs" "grep -q 'left out while stuck.*stuck [0-9]* inputs' '$OUT/stuck.log'"
  alone=$(sent_of "$OUT/alone")
  stuck=$(sent_of "$OUT/stuck")
  check "python kept receiving inputs (sent $stuck beside the stuck adapter, $alone without it)" \
    "[ $((stuck * 2)) -ge $alone ]"
else
  echo "SKIP-NOTE part 1 needs the Python SDK (.venv): run ./setup install"
  fail=$((fail+1))
fi

# 2. A hanging layer-3 client.
start=$(date +%s)
"$CC" fuzz --layers contextual --time 20s --seed 2 --adapters cpp --deadline 3 \
  --client-config "$ROOT/tests/fake_clients/clients.json" --clients fake-a,fake-hang \
  --out "$OUT/l3" >"$OUT/l3.log" 2>&1
rc=$?
took=$(($(date +%s) - start))
check "a layer-3 run beside a hanging client ends in time (exit $rc, ${took}s)" "[ $rc -le 1 ] && [ $took -lt 60 ]"
check "the hanging client's rows are timeout results (a finding of fake-hang)" "python3 - '$OUT/l3/findings' <<'PY'
import glob, json, sys
hits = [f for f in glob.glob(sys.argv[1] + '/*.json')
        if any(d['class'] == 'timeout' and 'fake-hang' in d['implementations'] for d in json.load(open(f))['divergences'])]
sys.exit(0 if hits else 1)
PY"
finish
