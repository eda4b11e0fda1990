"""Writes composition.json: crosscheck's own layer-3 scenario rows (docs/scenarios.md, "The rows").

Run with the project's venv: .venv/bin/python tests/data/scenarios/generate.py
Each row's expectation is derived from the composition rules (docs/scenarios.md cites the rule) and
explained in its "comment". Requests are checked canonical on the installed SDK's schemas; positive
responses too. No upstream scenario is copied: every row is built here.
"""
import json
import sys
from pathlib import Path

from agenthooksprotocol.runtime import Validator

SOURCE = "urn:crosscheck:scenario"
TIME = "2026-12-01T00:00:00Z"
HARNESS = {"name": "crosscheck", "version": "0.1.0"}
TOOL_CAPS = {
    "effects": ["deny", "allow", "ask", "modify", "return", "message", "flow", "inject"],
    "modify": {"input": {"replace": True, "merge": True}},
    "flow": {"operations": ["stop"]},
    "inject": {"context": {"append": True, "deliverAt": ["now", "next_turn"]}},
}
NEUTRAL = object()  # a response with no effects member at all


def tool_request(rid, caps=None, state=NEUTRAL, tool_input=None):
    params = {
        "protocolVersion": "draft",
        "event": {
            "id": rid, "source": SOURCE, "type": "tool.before", "time": TIME, "harness": HARNESS,
            "call": {"id": "call-" + rid}, "path": "native",
            "tool": {"name": "task", "input": tool_input or {"task": 1}, "origin": "native"},
        },
        "capabilities": caps or TOOL_CAPS,
    }
    if state is not NEUTRAL:
        params["state"] = state
    return {"jsonrpc": "2.0", "id": rid, "method": "hooks/intercept", "params": params}


def finish_request(rid, remaining=2):
    return {"jsonrpc": "2.0", "id": rid, "method": "hooks/intercept", "params": {
        "protocolVersion": "draft",
        "event": {"id": rid, "source": SOURCE, "type": "turn.finish.before", "time": TIME, "harness": HARNESS,
                  "turn": {"id": "turn-" + rid}, "outcome": "completed", "continuationCount": 0, "items": []},
        "capabilities": {"effects": ["flow", "message"], "flow": {
            "operations": ["stop", "continue"], "remainingContinuations": remaining, "continuationCount": 0}},
    }}


def response(rid, effects=NEUTRAL, **result):
    body = {"protocolVersion": "draft"}
    if effects is not NEUTRAL:
        body["effects"] = effects
    body.update(result)
    return {"jsonrpc": "2.0", "id": rid, "result": body}


def message(mid, text):
    return {"id": mid, "role": "user", "parts": [
        {"id": mid + "-p", "kind": "text", "mediaType": "text/plain", "selection": "body", "text": text}]}


ROWS = []


def row(rid, comment, request, resp, expected=None, tags=(), error=False):
    r = {"id": rid, "comment": comment, "tags": list(tags), "request": request, "response": resp}
    if error:
        r["expectError"] = True
    else:
        r["expected"] = expected
    ROWS.append(r)


RAN = {"decision": "allow", "executed": True, "input": {"task": 1}, "messages": []}
DENY = {"type": "deny", "reason": "policy says no"}

# Neutral responses (rule 1 and the neutral-response contract).
row("empty-effects", "effects: [] is neutral: permission none resolves to allow (rule 2), the tool runs once (rule 9).",
    tool_request("empty-effects"), response("empty-effects", []), RAN, ["neutral"])
row("omitted-effects", "An omitted result.effects counts as an empty list: neutral, as effects: [].",
    tool_request("omitted-effects"), response("omitted-effects"), RAN, ["neutral"])
row("omitted-state", "No params.state: permission none and candidate null (rule 1); allow; the tool runs.",
    tool_request("omitted-state"), response("omitted-state", [{"type": "allow"}]), RAN, ["state"])
row("allow", "allow with state {none, null}: allow, executed.",
    tool_request("allow", state={"permission": "none", "candidate": None}), response("allow", [{"type": "allow"}]), RAN)
# Permission precedence (rule 5): deny > ask > allow.
row("deny", "deny: decision deny, not executed; the reason is not a message (rule 6).",
    tool_request("deny"), response("deny", [DENY]),
    {"decision": "deny", "executed": False, "messages": []}, ["permission"])
row("ask", "ask stays pending: decision ask, not executed (rule 2).",
    tool_request("ask"), response("ask", [{"type": "ask"}]), {"decision": "ask", "executed": False}, ["permission"])
row("ask-then-deny", "deny wins over ask in either order (rule 5).",
    tool_request("ask-then-deny"), response("ask-then-deny", [{"type": "ask"}, DENY]),
    {"decision": "deny", "executed": False}, ["permission"])
row("allow-then-ask", "ask wins over allow (rule 5).",
    tool_request("allow-then-ask"), response("allow-then-ask", [{"type": "allow"}, {"type": "ask"}]),
    {"decision": "ask", "executed": False}, ["permission"])
row("incoming-deny-sticky", "An incoming deny is sticky (rule 2): a new allow does not lift it.",
    tool_request("incoming-deny-sticky", state={"permission": "deny", "candidate": None}),
    response("incoming-deny-sticky", [{"type": "allow"}]), {"decision": "deny", "executed": False}, ["permission"])
# Messages (rule 6).
row("messages-in-order", "Messages accumulate in response order after acceptance (rule 6).",
    tool_request("messages-in-order"),
    response("messages-in-order", [{"type": "message", "text": "first"}, {"type": "message", "text": "second"}]),
    dict(RAN, messages=["first", "second"]), ["message"])
# Return values (rules 1, 5, 9): a candidate whose value is falsy is still a result.
for name, value in [("null", None), ("false", False), ("zero", 0), ("empty-string", "")]:
    rid = "return-" + name
    row(rid, "return binds a candidate whose value is %s: it is the result and the tool does not run (rule 9);"
        " a null *value* differs from a null *candidate*." % json.dumps(value),
        tool_request(rid), response(rid, [{"type": "return", "value": value}]),
        {"decision": "allow", "executed": False, "result": value}, ["return"])
row("incoming-candidate-null-value", "An incoming candidate whose value is null is present: with a neutral"
    " response it stays bound (input unchanged, rule 5), so the result is null and the tool does not run.",
    tool_request("incoming-candidate-null-value", state={"permission": "none", "candidate": {"value": None}}),
    response("incoming-candidate-null-value", []), {"decision": "allow", "executed": False, "result": None}, ["return"])
# Modifications (rule 4): shallow merge, null as a value, replace drops omitted keys, staged before return.
row("modify-merge-shallow", "Merge is shallow: the nested opts object is replaced whole, null is kept as a value"
    " (rule 4); the changed input runs.",
    tool_request("modify-merge-shallow", tool_input={"task": 1, "opts": {"a": 1, "b": 2}}),
    response("modify-merge-shallow", [{"type": "modify", "target": "input", "operation": "merge",
                                       "value": {"opts": {"a": 3}, "note": None}}]),
    {"decision": "allow", "executed": True, "input": {"task": 1, "opts": {"a": 3}, "note": None}}, ["modify"])
row("modify-replace", "Replace removes the keys the value omits (rule 4).",
    tool_request("modify-replace", tool_input={"task": 1, "keep": True}),
    response("modify-replace", [{"type": "modify", "target": "input", "operation": "replace", "value": {"task": 2}}]),
    {"decision": "allow", "executed": True, "input": {"task": 2}}, ["modify"])
row("modify-in-order-before-return", "Modifications are staged in order before a return binds, wherever the"
    " return sits (rule 4): merge then replace gives {task: 3}; the return binds to it and wins over execution.",
    tool_request("modify-in-order-before-return"),
    response("modify-in-order-before-return", [
        {"type": "return", "value": "cached"},
        {"type": "modify", "target": "input", "operation": "merge", "value": {"extra": 1}},
        {"type": "modify", "target": "input", "operation": "replace", "value": {"task": 3}}]),
    {"decision": "allow", "executed": False, "input": {"task": 3}, "result": "cached"}, ["modify", "return"])
# Atomic rejection (rule 3).
row("unknown-effect-after-valid", "An unknown effect type fails the whole response even after valid effects"
    " (rule 3): nothing leaks (no message, no deny).",
    tool_request("unknown-effect-after-valid"),
    response("unknown-effect-after-valid", [{"type": "message", "text": "leak?"}, DENY, {"type": "org.example.unknown"}]),
    error=True, tags=["schema-invalid"])
row("unadvertised-effect", "ask is not in the request's advertised effects: a failure, never a no-op (rule 3).",
    tool_request("unadvertised-effect", caps={"effects": ["allow", "deny"]}),
    response("unadvertised-effect", [{"type": "ask"}]), error=True, tags=["capability-invalid"])
row("unadvertised-target", "modify is advertised but not for any target: a modify of input is unsupported (rule 3).",
    tool_request("unadvertised-target", caps={"effects": ["modify", "allow"], "modify": {"input": {"replace": False, "merge": True}}}),
    response("unadvertised-target", [{"type": "modify", "target": "output", "operation": "merge",
                                      "value": [message("m1", "x")]}]), error=True, tags=["capability-invalid"])
row("unadvertised-operation", "Only merge is advertised for input: a replace fails the response (rule 3).",
    tool_request("unadvertised-operation", caps={"effects": ["modify"], "modify": {"input": {"replace": False, "merge": True}}}),
    response("unadvertised-operation", [{"type": "modify", "target": "input", "operation": "replace", "value": {"task": 2}}]),
    error=True, tags=["capability-invalid"])
row("wrong-response-id", "The response id must correlate with the pending request (rule 3).",
    tool_request("wrong-response-id"), response("another-id", []), error=True, tags=["correlation-invalid"])
row("wrong-protocol-version", "The result's protocolVersion must be the request's (rule 3).",
    tool_request("wrong-protocol-version"),
    {"jsonrpc": "2.0", "id": "wrong-protocol-version", "result": {"protocolVersion": "1999-01-01", "effects": []}},
    error=True, tags=["schema-invalid"])
row("null-effects", "effects: null is neither a list nor omitted: the response is invalid (rule 3).",
    tool_request("null-effects"), response("null-effects", None), error=True, tags=["schema-invalid"])
# Flow (rule 7).
row("tool-flow-stop", "At tool.before, stop prevents execution without changing the allow decision (rule 7).",
    tool_request("tool-flow-stop"), response("tool-flow-stop", [{"type": "flow", "operation": "stop", "reason": "enough"}]),
    {"decision": "allow", "executed": False, "flow": "stop"}, ["flow"])
row("finish-continue", "continue at turn.finish.before with 2 remaining: flow continue, its instruction kept,"
    " one unit consumed (2 -> 1), executed false at a finish (rules 7, 9).",
    finish_request("finish-continue"),
    response("finish-continue", [{"type": "flow", "operation": "continue", "instruction": "check the tests"}]),
    {"decision": "allow", "executed": False, "flow": "continue", "continuationInstructions": ["check the tests"],
     "continuationRemaining": 1}, ["flow"])
row("finish-stop-wins", "Stop wins over continue in either order; the continue instruction is retained, no"
    " allowance is consumed (rule 7).",
    finish_request("finish-stop-wins"),
    response("finish-stop-wins", [{"type": "flow", "operation": "continue", "instruction": "again"},
                                  {"type": "flow", "operation": "stop", "reason": "done"}]),
    {"decision": "allow", "executed": False, "flow": "stop", "continuationInstructions": ["again"],
     "continuationRemaining": 2}, ["flow"])
row("finish-continue-exhausted", "continue needs a positive remaining allowance: with 0 the response fails (rule 7).",
    finish_request("finish-continue-exhausted", remaining=0),
    response("finish-continue-exhausted", [{"type": "flow", "operation": "continue"}]), error=True, tags=["capability-invalid"])
# Injections (rule 8).
INJECT = {"type": "inject", "target": "context", "operation": "append", "deliverAt": "now", "value": [message("inj-1", "context")]}
row("inject-advertised", "inject with the advertised deliverAt is accepted and reported whole, in order (rule 8).",
    tool_request("inject-advertised"), response("inject-advertised", [INJECT]),
    dict(RAN, injections=[INJECT]), ["inject"])
row("inject-unadvertised-delivery", "deliverAt now is not advertised (only next_turn): the response fails (rule 8).",
    tool_request("inject-unadvertised-delivery", caps=dict(TOOL_CAPS, inject={"context": {"append": True, "deliverAt": ["next_turn"]}})),
    response("inject-unadvertised-delivery", [INJECT]), error=True, tags=["capability-invalid"])
# Extensions.
row("extension-in-envelope", "An extension member in the result envelope is opaque: the response stays neutral.",
    tool_request("extension-in-envelope"),
    response("extension-in-envelope", [], extensions={"org.example.trace": {"span": "a1"}}), RAN, ["extension"])


# Incoming flow state (rule 7 over the occurrence: docs/host.md, "prior-flow"): a stop or continue
# accepted earlier in the same occurrence, with its instructions and injections. Written to state.json,
# apart from composition.json: the Rust 0.10.1 interop client answers these rows only for three ids of
# its own (docs/findings.md), which rows 1-3 carry so that both clients can be compared on them.
STATE_ROWS = []


def state(**members):
    return dict({"permission": "none", "candidate": None}, **members)


def full_finish_request(rid, st):
    r = finish_request(rid)
    r["params"]["capabilities"]["flow"].update(maxContinuations=3, continuationCount=1)
    r["params"]["state"] = st
    return r


def state_row(rid, comment, request, effects, expected):
    STATE_ROWS.append({"id": rid, "comment": comment, "tags": ["flow", "state"], "request": request,
                       "response": response(rid, effects), "expected": expected})


STOP_CAPS = {"effects": ["deny", "allow", "ask", "modify", "message", "return", "flow"],
             "modify": {"input": {"replace": True, "merge": True}}, "flow": {"operations": ["stop"]}}
STOPPED = {"decision": "allow", "executed": False, "input": {"task": 1}, "messages": [], "flow": "stop"}
for suffix, effects in [("empty", []), ("allow", [{"type": "allow"}]), ("return", [{"type": "return", "value": "cached"}])]:
    rid = "prior-accepted-stop-" + suffix
    state_row(rid, "A stop accepted earlier in the occurrence stays: the tool does not run, flow stop, and a"
              " candidate does not apply (rules 7, 9).", tool_request(rid, caps=STOP_CAPS, state=state(flow="stop")),
              effects, STOPPED)
state_row("prior-stop-tool", "The first row again under an id of crosscheck's own.",
          tool_request("prior-stop-tool", caps=STOP_CAPS, state=state(flow="stop")), [], STOPPED)
state_row("prior-stop-beats-continue", "An earlier stop wins over this response's continue: the instruction is"
          " kept, no allowance is used (rule 7).",
          full_finish_request("prior-stop-beats-continue", state(flow="stop")),
          [{"type": "flow", "operation": "continue", "instruction": "again"}],
          {"decision": "allow", "executed": False, "messages": [], "flow": "stop",
           "continuationInstructions": ["again"], "continuationRemaining": 2})
state_row("prior-stop-neutral-finish", "An earlier stop with a neutral response: flow stop, no instruction, the"
          " allowance unchanged (rule 7).", full_finish_request("prior-stop-neutral-finish", state(flow="stop")), [],
          {"decision": "allow", "executed": False, "messages": [], "flow": "stop",
           "continuationInstructions": [], "continuationRemaining": 2})
state_row("prior-continue-then-continue", "An earlier continue and this response's: one continuation, one unit"
          " (2 -> 1), the earlier instruction first (rule 7).",
          full_finish_request("prior-continue-then-continue", state(flow="continue", instructions=["first"])),
          [{"type": "flow", "operation": "continue", "instruction": "second"}],
          {"decision": "allow", "executed": False, "messages": [], "flow": "continue",
           "continuationInstructions": ["first", "second"], "continuationRemaining": 1})
state_row("prior-continue-then-stop", "This response's stop wins over an earlier continue; the earlier"
          " instruction is kept, no allowance is used (rule 7).",
          full_finish_request("prior-continue-then-stop", state(flow="continue", instructions=["first"])),
          [{"type": "flow", "operation": "stop", "reason": "done"}],
          {"decision": "allow", "executed": False, "messages": [], "flow": "stop",
           "continuationInstructions": ["first"], "continuationRemaining": 2})
state_row("prior-flow-none", "state.flow none is no earlier flow: nothing resolves, so no flow is reported"
          " (the verifier contract: an unasserted flow fails).",
          tool_request("prior-flow-none", state=state(flow="none")), [], RAN)
LATER = {"type": "inject", "target": "context", "operation": "append", "deliverAt": "next_turn",
         "value": [message("inj-0", "earlier")]}


def plain(rid, tags=()):
    return {"id": rid, "comment": "A neutral row for the client stand-ins.", "tags": list(tags),
            "request": tool_request(rid), "response": response(rid, []), "expected": RAN}


def write(name, rows):
    out = Path(__file__).parent / name
    out.parent.mkdir(exist_ok=True)
    lines = ",\n".join(json.dumps(r, separators=(", ", ": ")) for r in rows)
    out.write_text('{"version": 1, "scenarios": [\n' + lines + "\n]}\n")
    print("wrote %d rows to %s" % (len(rows), out))


def main():
    validator = Validator()
    for r in ROWS:
        validator.validate("intercept-request", r["request"])
        if not r.get("expectError"):
            validator.validate("intercept-response", r["response"])
    write("composition.json", ROWS)
    state_row("prior-injections-first", "Injections accepted earlier in the occurrence come first, whole, then"
              " this response's (rules 1, 8).", tool_request("prior-injections-first", state=state(injections=[LATER])),
              [INJECT], dict(RAN, injections=[LATER, INJECT]))
    for r in STATE_ROWS:
        validator.validate("intercept-request", r["request"])
        validator.validate("intercept-response", r["response"])
    write("state.json", STATE_ROWS)
    # Robustness: three neutral rows and one that tells tests/fake_clients/fake_client.py to misbehave.
    for kind in ["hang", "crash", "partial", "extra", "malformed", "no-report", "differ"]:
        write("robust-%s.json" % kind, [plain("r1"), plain("r2"), plain("bad-" + kind, ["fake:" + kind]), plain("r3")])
    # Skew: a file from a snapshot before event.harness was required.
    old = [plain("old-1"), plain("old-2")]
    for r in old:
        del r["request"]["params"]["event"]["harness"]
        r["comment"] = "Written for a snapshot without event.harness: skew here unless --complete-harness."
    write("old-snapshot.json", old)
    # Bad input: each breaks the format in one way (exit 2 naming file, row and field).
    dup = [plain("same"), plain("same")]
    both = [dict(plain("both"), expectError=True)]
    request_id = [plain("row-id")]
    request_id[0]["request"]["id"] = "other"
    event_id = [plain("row-id")]
    event_id[0]["request"]["params"]["event"]["id"] = "other"
    write("bad/duplicate-ids.json", dup)
    write("bad/both-expectations.json", both)
    write("bad/request-id.json", request_id)
    write("bad/event-id.json", event_id)
    (Path(__file__).parent / "bad/not-json.json").write_text('{"version": 1, "scenarios": [\n')


if __name__ == "__main__":
    sys.exit(main())
