#!/usr/bin/env bash
# config_refused.sh: an adapter configuration (adapters/default.json's format) or a self-test faults
# table (selftest/faults.json's) with an unknown field or a wrong type is refused with exit 2, the
# file, the JSON Pointer and what was expected; the file itself is left as it was.
#   tests/adapters/config_refused.sh CROSSCHECK WORK_DIR
set -u
BIN=$1 WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK"
failures=0
expect() {  # expect NAME FILE_CONTENT WANTED_TEXT COMMAND... (the file goes after --adapter-config)
  expect_with --adapter-config "$@"
}
expect_with() {  # expect_with OPTION NAME FILE_CONTENT WANTED_TEXT COMMAND...
  local option=$1 name=$2 content=$3 wanted=$4
  shift 4
  local file="$WORK/$name.json"
  printf '%s' "$content" >"$file"
  local before
  before=$(sha256sum "$file")
  "$BIN" "$@" "$option" "$file" >"$WORK/$name.out" 2>&1
  local code=$?
  local out
  out=$(cat "$WORK/$name.out")
  if [ "$code" != 2 ]; then
    echo "FAIL $name: exit $code, want 2: $out"; failures=$((failures + 1)); return
  fi
  case "$out" in
    *"$file: at $wanted"*) echo "ok   $name: $out" ;;
    *) echo "FAIL $name: want '$file: at $wanted' in: $out"; failures=$((failures + 1)) ;;
  esac
  [ "$(sha256sum "$file")" = "$before" ] || { echo "FAIL $name: the file changed"; failures=$((failures + 1)); }
}
entry='"name":"x","argv":["/bin/true"]'
expect unknown-field "[{$entry,\"defualt\":true}]" "/0/defualt (field '[0].defualt'): unknown field" adapters --check
expect argv-type "[{\"name\":\"x\",\"argv\":\"/bin/true\"}]" "/0/argv (field '[0].argv'): expected an array, got string" adapters
expect env-value "[{$entry},{\"name\":\"y\",\"argv\":[\"a\"],\"env\":{\"K\":1}}]" \
  "/1/env/K (field '[1].env.K'): expected a string, got number" adapters --check
expect requires-string "[{$entry,\"requires\":\"AHP_GO_SDK\"}]" "/0/requires (field '[0].requires'): expected an array, got string" \
  adapters
expect default-type "[{$entry,\"default\":\"yes\"}]" "/0/default (field '[0].default'): expected a boolean, got string" adapters --check
expect missing-argv "[{\"name\":\"x\"}]" "/0/argv (field '[0].argv'): required field is missing" adapters --check
expect not-a-list '{"adapters":[]}' '"" (the document): expected an array, got object' adapters --check
fault='"name":"f","area":"a","description":"d","expectedClass":"acceptance","witness":{"root":"effect","payload":"{}"}'
expect_with --faults-table faults-unknown "{\"faults\":[{$fault,\"expected\":1}]}" \
  "/faults/0/expected (field 'faults[0].expected'): unknown field" selftest
expect_with --faults-table faults-type "{\"faults\":[{$fault,\"aliases\":\"x\"}]}" \
  "/faults/0/aliases (field 'faults[0].aliases'): expected an array, got string" selftest
exit $((failures > 0))
