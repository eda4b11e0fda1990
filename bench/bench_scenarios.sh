#!/usr/bin/env bash
# bench_scenarios.sh [ROWS] [ROUNDS]: layer-3 scenarios per second through each real SDK interop
# client, driven by `crosscheck scenarios run` (crosscheck as the scripted server), against the same
# client on its own SDK server with the same scenario file, measured side by side, interleaved,
# ROUNDS times (median). The file is tests/data/scenarios/composition.json repeated to ROWS rows
# (ids made unique). Goal: crosscheck-driven >= 0.8x the client on its own server.
# A client that is not built here is reported as skipped, with no figure.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CC=${CROSSCHECK:-$ROOT/build/crosscheck}
ROWS=${1:-64}
ROUNDS=${2:-3}
W=$(mktemp -d /tmp/crosscheck-bench-scenarios.XXXXXX)
trap 'rm -rf "$W"' EXIT
[ -x "$CC" ] || { echo "build crosscheck first ($CC)"; exit 2; }

/usr/bin/python3 - "$ROOT/tests/data/scenarios/composition.json" "$ROWS" "$W/rows.json" <<'PY'
import copy, json, sys
rows = json.load(open(sys.argv[1]))["scenarios"]
out = []
for i in range(int(sys.argv[2])):
    r = copy.deepcopy(rows[i % len(rows)])
    rid = "%s-%d" % (r["id"], i)
    r["id"] = rid
    r["request"]["id"] = rid
    r["request"]["params"]["event"]["id"] = rid
    if isinstance(r["response"], dict) and "id" in r["response"]:
        r["response"]["id"] = rid
    out.append(r)
json.dump({"version": 1, "scenarios": out}, open(sys.argv[3], "w"))
PY

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# own CLIENT_ARGV... -- SERVER_ARGV...: the client against its SDK's own server, seconds on stdout.
own() {
  local client=() server=()
  while [ "$1" != -- ]; do client+=("$1"); shift; done
  shift
  server=("$@")
  local d="$W/own-$RANDOM"
  mkdir -p "$d"
  /usr/bin/python3 - "$d" "$W/rows.json" "${server[@]}" <<'PY'
import json, sys
d, rows, server = sys.argv[1], sys.argv[2], sys.argv[3:]
json.dump({"transport": "stdio", "scenarioFile": rows, "readinessFile": d + "/ready.json",
           "auth": {"mode": "none"}}, open(d + "/server.json", "w"))
json.dump({"transport": "stdio", "serverCommand": server, "serverConfig": d + "/server.json",
           "scenarioFile": rows, "reportFile": d + "/report.json", "auth": {"mode": "none"}},
          open(d + "/client.json", "w"))
PY
  local t0 t1
  t0=$(now)
  "${client[@]}" --config "$d/client.json" >"$d/out.txt" 2>&1 || true
  t1=$(now)
  [ -s "$d/report.json" ] || { echo "no report from ${client[0]} on its own server" >&2; cat "$d/out.txt" >&2; exit 1; }
  echo "$t1 - $t0" | bc -l
}

# driven NAME: `crosscheck scenarios run --clients NAME`, seconds on stdout.
driven() {
  local d="$W/driven-$RANDOM" t0 t1
  t0=$(now)
  "$CC" scenarios run --clients "$1" --batch-deadline 900s --out "$d" "$W/rows.json" >"$W/driven.txt" 2>&1 || true
  t1=$(now)
  grep -q "^$ROWS rows x 1 clients" "$W/driven.txt" || { echo "crosscheck did not run the rows on $1" >&2; tail -5 "$W/driven.txt" >&2; exit 1; }
  echo "$t1 - $t0" | bc -l
}

echo "layer-3 scenarios/s, $ROWS rows, $ROUNDS rounds (median), load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %22s %22s %8s\n' client "on its own server" "driven by crosscheck" ratio
bench() {
  local name=$1; shift
  local own_times=() driven_times=()
  for _ in $(seq "$ROUNDS"); do
    own_times+=("$(own "$@")")
    driven_times+=("$(driven "$name")")
  done
  local o d
  o=$(printf '%s\n' "${own_times[@]}" | median)
  d=$(printf '%s\n' "${driven_times[@]}" | median)
  printf '%-8s %17.1f /s   %17.1f /s   %7.2fx\n' "$name" "$(echo "$ROWS / $o" | bc -l)" "$(echo "$ROWS / $d" | bc -l)" \
    "$(echo "$o / $d" | bc -l)"
}
PY_BIN=$ROOT/.venv/bin/python
if [ -x "$PY_BIN" ]; then
  bench python "$PY_BIN" -m agenthooksprotocol.interop client -- "$PY_BIN" -m agenthooksprotocol.interop server
else
  echo "python   skipped: .venv not set up (./setup install)"
fi
RS_BIN=$ROOT/adapters/rust/interop/bin/interop
if [ -x "$RS_BIN" ]; then
  (cd "$ROOT/adapters/rust" && bench rust "$RS_BIN" client -- "$RS_BIN" server)
else
  echo "rust     skipped: the interop binary is not built (adapters/rust/install.sh)"
fi
