#!/usr/bin/env python3
"""A stand-in interop client for crosscheck's robustness tests (not an SDK).

It speaks the client side of the cross-language adapter contract v1 like a real one (spawns
serverCommand --config serverConfig, sends hooks/capabilities, then one hooks/intercept line per
row, reads one reply line each, writes {language, results}), and misbehaves when a row's tags say
so:
  fake:hang      stop answering (sleep) once this row's reply is read
  fake:crash     die (exit 3) once this row's reply is read, no report
  fake:partial   leave this row out of the report
  fake:extra     add a result for an id it was not given
  fake:malformed write a report that is not JSON
  fake:no-report exit 0 without a report
  fake:differ    with FAKE_FLAVOR=b, derive decision deny instead of allow
  fake:reject    with FAKE_FLAVOR=b, reject the response (actual {"rejected": true})
  fake:flood     write 64 MiB to stderr before sending this row's request
FAKE_COMPOSE=MODE composes tool.before responses like a host (allow < ask < deny, an incoming deny
sticky, messages in order, modify merge/replace, return; an unadvertised or unknown effect rejects)
with one planted fault, for the reducer's tests:
  ignore-message  message effects are skipped
  null-deletes    a merge member whose value is null deletes the key instead of setting null
FAKE_FAULT_IDS=ID,... plants the fault only on rows with those ids (every other row is composed
right), as the Rust client picks its code path by scenario id (docs/findings.md section 12).
FAKE_HANG_SUFFIX=S stops answering (sleeps) once the reply to a row whose id ends with S is read (a
client that hangs on some generated rows, which carry no fake: tags; their ids end with -<index>). FAKE_MODE=exit-at-once exits 1
before doing anything; FAKE_ONCE=PATH works once (creating PATH)
and then exits 1 at once on every later run, as a client whose binary went away mid-run.
FAKE_FIXED=1 makes flavour b behave as a
(the client once its fault is fixed, for replay tests). FAKE_RECORD=PATH appends every reply line it
reads, as bytes, to PATH (for the byte-exactness test).
"""
import json
import os
import subprocess
import sys
import time


def compose(row, reply, mode):
    """The planted-fault host of FAKE_COMPOSE: the result it derives, or {"rejected": True}."""
    rejected = {"rejected": True}
    params = row["request"]["params"]
    event, caps = params["event"], params.get("capabilities", {})
    result = reply.get("result")
    if event.get("type") != "tool.before" or not isinstance(result, dict) or "error" in reply:
        return rejected
    if result.get("protocolVersion") != params.get("protocolVersion"):
        return rejected
    effects = result.get("effects", [])
    if not isinstance(effects, list):
        return rejected
    state = params.get("state") or {}
    rank = {"allow": 0, "ask": 1, "deny": 2}
    decision = "deny" if state.get("permission") == "deny" else "allow"
    tool_input = event.get("tool", {}).get("input")
    messages, returned = [], None
    for effect in effects:
        kind = effect.get("type") if isinstance(effect, dict) else None
        if kind not in caps.get("effects", []):
            return rejected
        if kind in rank:
            if rank[kind] > rank[decision]:
                decision = kind
        elif kind == "message":
            if mode != "ignore-message":
                messages.append(effect.get("text"))
        elif kind == "modify":
            op = effect.get("operation")
            if effect.get("target") != "input" or caps.get("modify", {}).get("input", {}).get(op) is not True:
                return rejected
            value = effect.get("value")
            if op == "replace":
                tool_input = value
            elif op == "merge" and isinstance(value, dict) and isinstance(tool_input, dict):
                tool_input = dict(tool_input)
                for k, v in value.items():
                    if v is None and mode == "null-deletes":
                        tool_input.pop(k, None)
                    else:
                        tool_input[k] = v
            else:
                return rejected
        elif kind == "return":
            returned = ("value", effect.get("value"))
        else:
            return rejected
    actual = {"decision": decision, "executed": decision == "allow" and returned is None, "input": tool_input,
              "messages": messages}
    if returned is not None:
        actual["result"] = returned[1]
    return actual


def main():
    once = os.environ.get("FAKE_ONCE")
    if once and os.path.exists(once):
        print("fake client: FAKE_ONCE ran already", file=sys.stderr)
        return 1
    if once:
        open(once, "w").close()
    if os.environ.get("FAKE_MODE") == "exit-at-once":
        print("fake client: told to exit at once", file=sys.stderr)
        return 1
    config = json.load(open(sys.argv[sys.argv.index("--config") + 1]))
    rows = json.load(open(config["scenarioFile"]))["scenarios"]
    server = subprocess.Popen(config["serverCommand"] + ["--config", config["serverConfig"]],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    record = os.environ.get("FAKE_RECORD")
    flavor = os.environ.get("FAKE_FLAVOR", "a")
    compose_mode = os.environ.get("FAKE_COMPOSE")
    if os.environ.get("FAKE_FIXED"):
        flavor = "a"

    def exchange(message):
        server.stdin.write(json.dumps(message).encode() + b"\n")
        server.stdin.flush()
        line = server.stdout.readline()
        if record:
            with open(record, "ab") as f:
                f.write(line)
        return line

    exchange({"jsonrpc": "2.0", "id": "discovery", "method": "hooks/capabilities",
              "params": {"protocolVersion": "draft"}})
    results, malformed, no_report = [], False, False
    hang_suffix = os.environ.get("FAKE_HANG_SUFFIX")
    for row in rows:
        tags = row.get("tags", [])
        if "fake:flood" in tags:
            for _ in range(64):
                sys.stderr.write("flood " * 174763)
            sys.stderr.flush()
        line = exchange(row["request"])
        if "fake:hang" in tags or (hang_suffix and str(row.get("id", "")).endswith(hang_suffix)):
            time.sleep(3600)
        if "fake:crash" in tags:
            os._exit(3)
        try:
            reply = json.loads(line)
            ok = isinstance(reply.get("result"), dict) and reply.get("id") == row["id"]
        except ValueError:
            ok = False
        if compose_mode:
            listed = os.environ.get("FAKE_FAULT_IDS")
            mode = compose_mode if listed is None or row["id"] in listed.split(",") else "right"
            actual = compose(row, json.loads(line), mode) if ok else {"rejected": True}
        elif ok and flavor == "b" and "fake:reject" in tags:
            actual = {"rejected": True}
        elif ok:
            decision = "deny" if flavor == "b" and "fake:differ" in tags else "allow"
            actual = {"decision": decision, "executed": decision == "allow",
                      "input": row["request"]["params"]["event"].get("tool", {}).get("input"), "messages": []}
        else:
            actual = {"rejected": True}
        expected = row.get("expected")
        passed = actual == {"rejected": True} if row.get("expectError") else all(
            actual.get(k) == v for k, v in (expected or {}).items())
        if "fake:partial" not in tags:
            results.append({"id": row["id"], "status": "passed" if passed else "failed", "actual": actual})
        if "fake:extra" in tags:
            results.append({"id": "not-given", "status": "passed", "actual": None})
        malformed = malformed or "fake:malformed" in tags
        no_report = no_report or "fake:no-report" in tags
    server.stdin.close()
    server.wait(timeout=10)
    if no_report:
        return 0
    with open(config["reportFile"], "w") as f:
        f.write("{not json" if malformed else json.dumps({"language": "fake", "results": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
