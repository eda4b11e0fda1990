#!/usr/bin/env python3
"""A layer-3 client stand-in for crosscheck's self-test (docs/selftest.md, "Layer 3").

    client_standin.py --fault NAME --crosscheck EXE [--schema S] -- REAL_CLIENT... --config PATH

It is an interop client of the cross-language adapter contract v1: crosscheck appends
`--config PATH` as to any client. It runs the real client (REAL_CLIENT..., e.g. the Python SDK's
`python -m agenthooksprotocol.interop client`) on the same config, then rewrites the real client's
report the way an SDK with exactly one broken rule would answer, and leaves every other row as the
real client reported it. A row it rewrites is answered by the reference host (`crosscheck apply`)
on a request and response changed so that the correct rules give the faulty answer (as the layer-2
faulty proxy asks a second reference), or, where no change of the input can, by the reference's
own answer changed the way src/layers/contextual/host/host.cpp's composition would be with that rule broken. Each
rewritten row carries "selftestAltered": true and the real client's row as "selftestUnaltered"
(client reports keep members they do not name), so the self-test tells the fault's rows from the
real client's own differences.
"""

import copy
import json
import os
import subprocess
import sys
import tempfile

EFFECT_TYPES = {"deny", "allow", "ask", "modify", "inject", "stop", "return", "message", "flow", "continue"}


def event(request):
    return request.get("params", {}).get("event", {})


def effects(response):
    result = response.get("result")
    e = result.get("effects") if isinstance(result, dict) else None
    return e if isinstance(e, list) else []


def with_effects(response, new_effects):
    r = copy.deepcopy(response)
    r["result"]["effects"] = new_effects
    return r


class Reference:
    """`crosscheck apply` on one request and response: {accepted, actual, rule, message, hostAccepted?}."""

    def __init__(self, exe, schema):
        self.exe, self.schema = exe, schema

    def apply(self, request, response):
        with tempfile.TemporaryDirectory(prefix="standin-") as d:
            rq, rs = os.path.join(d, "request.json"), os.path.join(d, "response.json")
            with open(rq, "w") as f:
                json.dump(request, f)
            with open(rs, "w") as f:
                json.dump(response, f)
            argv = [self.exe, "apply", "--request", rq, "--response", rs]
            if self.schema:
                argv += ["--schema", self.schema]
            p = subprocess.run(argv, capture_output=True, text=True)
            if p.returncode not in (0, 1):
                raise RuntimeError("crosscheck apply exited %d: %s" % (p.returncode, p.stderr.strip()))
            return json.loads(p.stdout)


def row_of(answer, row_id):
    """A report row of the shape the clients write, from an apply answer."""
    out = {"id": row_id, "status": "passed", "actual": answer["actual"]}
    if answer.get("hostAccepted") is False:
        out.update({"sdkAccepted": True, "hostAccepted": False, "rejectionLayer": "host-input-schema"})
    if answer.get("rule") and not answer.get("accepted"):
        out["error"] = "%s: %s" % (answer["rule"], answer.get("message") or "")
    return out


def tool_input_merges(request, response, rewrite):
    """The response with each input merge effect updated by rewrite(current, value) -> (the input after
    it, the effect's changed members) or None, the input followed through the effects in order as
    host.cpp composes it; None when nothing changed."""
    if event(request).get("type") != "tool.before":
        return None
    current = copy.deepcopy(event(request).get("tool", {}).get("input"))
    changed = False
    new_effects = []
    for e in effects(response):
        if isinstance(e, dict) and e.get("type") == "modify" and e.get("target") == "input":
            value = e.get("value")
            if e.get("operation") == "merge" and isinstance(current, dict) and isinstance(value, dict):
                new = rewrite(current, value)
                if new is not None:
                    e = dict(e, **new[1])
                    changed = True
                    current = new[0]
                else:
                    current = dict(current, **value)
            else:
                current = copy.deepcopy(value)
        new_effects.append(e)
    return with_effects(response, new_effects) if changed else None


def deep_merged(current, value):
    out = copy.deepcopy(current)
    for k, v in value.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merged(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


class Faults:
    """One method per fault (dashes as underscores): (reference, request, response, real row) -> the
    faulty row, or None where the fault does not change the answer (the real row stays)."""

    @staticmethod
    def deep_merge(ref, request, response, real):
        # A nested object is merged into the current one instead of replacing it: the same as a
        # shallow merge whose nested values are already the deep-merged ones.
        def rewrite(current, value):
            if not any(isinstance(v, dict) and isinstance(current.get(k), dict) for k, v in value.items()):
                return None
            fragment = {k: (deep_merged(current[k], v) if isinstance(v, dict) and isinstance(current.get(k), dict)
                            else v) for k, v in value.items()}
            if fragment == value:
                return None
            return dict(current, **fragment), {"value": fragment}

        changed = tool_input_merges(request, response, rewrite)
        return ref.apply(request, changed) if changed else None

    @staticmethod
    def null_as_deletion(ref, request, response, real):
        # A merge member set to null deletes the member: the same as replacing the input with the
        # merged value without it. Replace is made available for input in the request (the reference
        # validates a replaced value against the same tool input contract as a merged one).
        def rewrite(current, value):
            if not any(v is None for v in value.values()):
                return None
            merged = {k: v for k, v in dict(current, **value).items() if not (k in value and value[k] is None)}
            return merged, {"operation": "replace", "value": merged}

        if any(isinstance(e, dict) and e.get("type") == "modify" and e.get("target") == "input"
               and e.get("operation") == "replace" for e in effects(response)):
            return None  # making replace available would change how those effects are admitted
        changed = tool_input_merges(request, response, rewrite)
        if not changed:
            return None
        req = copy.deepcopy(request)
        modify = req["params"].setdefault("capabilities", {}).setdefault("modify", {})
        if not isinstance(modify.get("input"), dict):
            return None
        modify["input"]["replace"] = True
        return ref.apply(req, changed)

    @staticmethod
    def ask_beats_deny(ref, request, response, real):
        # Ask wins over deny: the same answer as the response without its deny effects and an incoming
        # deny taken as none (deny contributes only the permission). Only where the reference admits
        # the response as it is, since removing an effect could change admission.
        types = [e.get("type") for e in effects(response) if isinstance(e, dict)]
        state = request.get("params", {}).get("state") or {}
        incoming_deny = isinstance(state, dict) and state.get("permission") == "deny"
        if "ask" not in types or not ("deny" in types or incoming_deny):
            return None
        if not ref.apply(request, response).get("accepted"):
            return None
        req = copy.deepcopy(request)
        if incoming_deny:
            req["params"]["state"]["permission"] = "none"
        return ref.apply(req, with_effects(response, [e for e in effects(response)
                                                      if not (isinstance(e, dict) and e.get("type") == "deny")]))

    @staticmethod
    def return_anywhere(ref, request, response, real):
        # A return at a non-return boundary is admitted: the response without it composed as the
        # reference composes it, with the return's value as the result.
        original = ref.apply(request, response)
        if original.get("accepted") or original.get("rule") != "return-boundary":
            return None
        returns = [e for e in effects(response) if isinstance(e, dict) and e.get("type") == "return"]
        rest = ref.apply(request, with_effects(response, [e for e in effects(response) if e not in returns]))
        if rest.get("accepted") and returns and isinstance(rest.get("actual"), dict):
            rest["actual"]["result"] = returns[-1].get("value")
        return rest

    @staticmethod
    def unknown_effect_ignored(ref, request, response, real):
        # An effect of an unknown type is skipped instead of rejecting the response.
        original = ref.apply(request, response)
        if original.get("accepted") or original.get("rule") != "unknown-effect-type":
            return None
        known = [e for e in effects(response) if not isinstance(e, dict) or e.get("type") in EFFECT_TYPES]
        return ref.apply(request, with_effects(response, known))

    @staticmethod
    def continuation_per_effect(ref, request, response, real):
        # Every continue effect uses one unit of the allowance (the contract: one per response). With
        # n continues and allowance R, the faulty remainder R - n is the reference's on allowance
        # R - (n - 1); R < n leaves nothing for the last continue, which the reference rejects as
        # it rejects a continue on an allowance of 0. Rows with a stop are left alone (stop wins and
        # uses no allowance).
        flows = [e.get("operation") for e in effects(response) if isinstance(e, dict) and e.get("type") == "flow"]
        n = flows.count("continue")
        flow = request.get("params", {}).get("capabilities", {}).get("flow")
        remaining = flow.get("remainingContinuations") if isinstance(flow, dict) else None
        if n < 2 or "stop" in flows or not isinstance(remaining, int) or isinstance(remaining, bool):
            return None
        if not ref.apply(request, response).get("accepted"):
            return None
        req = copy.deepcopy(request)
        req["params"]["capabilities"]["flow"]["remainingContinuations"] = max(remaining - (n - 1), 0)
        return ref.apply(req, response)

    @staticmethod
    def candidate_kept(ref, request, response, real):
        # A changed input does not drop the incoming candidate (it still drops an incoming allow):
        # host.cpp's composition with has_candidate kept. Where a return follows, its value replaces
        # the candidate anyway, and a deny, ask or stop discards it as before.
        state = request.get("params", {}).get("state") or {}
        candidate = state.get("candidate") if isinstance(state, dict) else None
        if event(request).get("type") != "tool.before" or not isinstance(candidate, dict):
            return None
        if any(isinstance(e, dict) and e.get("type") == "return" for e in effects(response)):
            return None
        answer = ref.apply(request, response)
        actual = answer.get("actual")
        if not answer.get("accepted") or answer.get("hostAccepted") is False or not isinstance(actual, dict):
            return None
        original_input = event(request).get("tool", {}).get("input")
        if actual.get("input") == original_input or actual.get("decision") != "allow" or actual.get("flow") == "stop":
            return None
        actual["result"] = candidate.get("value")
        actual["executed"] = False
        return answer

    @staticmethod
    def messages_from_rejected(ref, request, response, real):
        # A rejected response still publishes its messages: the answer is the rejection with the
        # message texts beside it.
        answer = ref.apply(request, response)
        texts = [e.get("text") for e in effects(response) if isinstance(e, dict) and e.get("type") == "message"]
        if answer.get("accepted") or not texts:
            return None
        answer["actual"] = {"rejected": True, "messages": texts}
        return answer

    @staticmethod
    def reworded_errors(ref, request, response, real):
        # Not a fault: only the client's error text changes (error texts are never compared).
        if not real.get("error"):
            return None
        out = dict(real, error="stand-in: " + " ".join(reversed(real["error"].split())))
        return {"row": out}


def main(argv):
    if "--" not in argv:
        sys.exit("usage: client_standin.py --fault NAME --crosscheck EXE [--schema S] -- CLIENT... --config PATH")
    cut = argv.index("--")
    own, client = argv[:cut], argv[cut + 1:]
    opts = {}
    for i in range(0, len(own) - 1, 2):
        opts[own[i]] = own[i + 1]
    fault = getattr(Faults, opts.get("--fault", "").replace("-", "_"), None)
    if fault is None or "--crosscheck" not in opts:
        sys.exit("client_standin.py: --fault NAME (a method of Faults) and --crosscheck EXE are required")
    if "--config" not in client:
        sys.exit("client_standin.py: no --config PATH after the client command")
    config_path = client[client.index("--config") + 1]
    code = subprocess.run(client).returncode
    with open(config_path) as f:
        config = json.load(f)
    base = os.path.dirname(os.path.abspath(config_path))
    report_path = os.path.join(base, config["reportFile"]) if not os.path.isabs(config["reportFile"]) else config["reportFile"]
    scenario_path = config["scenarioFile"]
    if not os.path.isabs(scenario_path):
        scenario_path = os.path.join(base, scenario_path)
    if not os.path.exists(report_path):
        return code  # the real client wrote nothing: the runner sees what it would see without the stand-in
    with open(report_path) as f:
        report = json.load(f)
    with open(scenario_path) as f:
        rows = {r["id"]: r for r in json.load(f)["scenarios"]}
    ref = Reference(opts["--crosscheck"], opts.get("--schema"))
    for i, real in enumerate(report.get("results", [])):
        row = rows.get(real.get("id"))
        if row is None or real.get("status") not in ("passed", "failed"):
            continue
        answer = fault(ref, row["request"], row["response"], real)
        if answer is None:
            continue
        new = answer["row"] if "row" in answer else row_of(answer, real["id"])
        if new.get("actual") == real.get("actual") and "row" not in answer:
            continue
        new["selftestAltered"] = True
        new["selftestUnaltered"] = real
        report["results"][i] = new
    tmp = report_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(report, f)
    os.replace(tmp, report_path)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
