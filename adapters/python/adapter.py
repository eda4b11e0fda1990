"""crosscheck adapter for the AHP Python SDK (adapter protocol v1, see docs/protocol.md).

Reads NDJSON requests on stdin, answers one JSON line per request on stdout and flushes.
Two decoding paths of the same installed package:
  text (default)  agenthooksprotocol.generated.parse_<root>(text) then encode_<root>(value)
  --path direct   agenthooksprotocol.<Pascal>.from_dict(json.loads(text)) then encode_<root>(model)
The root table is built from the generated module itself, so it always matches the SDK.
Layer 2 (the validate op): agenthooksprotocol.runtime.Validator().validate(document, value), the
SDK's public canonical entrypoint (jsonschema with its format checker, then the generated parse),
on the value the SDK's own wire reader (agenthooksprotocol.interop.loads) makes of the text.
No test logic lives here: the harness compares, retries and minimizes.
"""

import base64
import binascii
import importlib.metadata
import json
import os
import platform
import sys
import time
from decimal import Decimal

import agenthooksprotocol
import agenthooksprotocol.generated as generated
import agenthooksprotocol.interop as interop
import agenthooksprotocol.runtime as runtime

BATCH_MAX = 256  # entries per batch line; more are refused
PROTOCOL = 1
PACKAGE_DIR = os.path.dirname(os.path.abspath(generated.__file__))


def pascal(root):
    return "".join(part[:1].upper() + part[1:] for part in root.split("_"))


def text_codec(root):
    parse, encode = getattr(generated, "parse_" + root), getattr(generated, "encode_" + root)

    def run(text):
        result = parse(text)
        if not result["ok"]:
            return "rejected", result["diagnostics"], None, None
        return "accepted", result["diagnostics"], encode, result["value"]

    return run


def direct_codec(root):
    model = getattr(agenthooksprotocol, pascal(root), None)
    if not (isinstance(model, type) and callable(getattr(model, "from_dict", None))):
        return None
    encode = getattr(generated, "encode_" + root)

    def run(text):
        try:
            value = json.loads(text, parse_float=Decimal)
        except (ValueError, RecursionError) as error:
            # The facade takes a dict: a payload Python's reader refuses never reaches it.
            return "rejected", [invalid_json()], None, "json.loads: %s" % error
        if not isinstance(value, dict):
            return "rejected", [], None, "from_dict takes a JSON object"
        try:
            parsed = model.from_dict(value)
        except ValueError as error:
            result = getattr(error, "result", None)
            if not isinstance(result, dict):
                raise
            return "rejected", result["diagnostics"], None, None
        # from_dict returns no warnings: this path reports acceptance and re-encoding only.
        return "accepted", [], encode, parsed

    return run


def invalid_json():
    return {"path": "", "code": "invalid_json", "severity": "error"}


def build_table(path):
    roots = sorted(name[len("parse_"):] for name in dir(generated)
                   if name.startswith("parse_") and callable(getattr(generated, name))
                   and callable(getattr(generated, "encode_" + name[len("parse_"):], None)))
    make = direct_codec if path == "direct" else text_codec
    table = {root: make(root) for root in roots}
    return {root: run for root, run in table.items() if run is not None}


def build_validator():
    """The SDK's canonical validator and the documents it validates: those of its bundle that have
    both a canonical schema and a generated codec (Validator.validate needs both)."""
    validator = runtime.Validator()
    documents = sorted(name[:-len(".schema.json")] for name in validator.validators
                       if name.endswith(".schema.json")
                       and callable(getattr(generated, "parse_" + name[:-len(".schema.json")].replace("-", "_"), None)))
    return validator, documents


def read_lock():
    try:
        with open(os.path.join(PACKAGE_DIR, "ahp-codegen.lock.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def hello(path, table):
    bundle = os.path.join(PACKAGE_DIR, "schemas.json")
    return {"op": "hello", "protocol": PROTOCOL,
            "implementation": {
                "name": "python/direct" if path == "direct" else "python",
                "language": "python", "path": path,
                "version": importlib.metadata.version("agenthooksprotocol"),
                "languageVersion": platform.python_version(),
                "os": "%s-%s" % (sys.platform, platform.machine())},
            "lock": read_lock(), "schemaBundle": bundle if os.path.isfile(bundle) else None,
            "roots": sorted(table), "reportsWarnings": path != "direct",
            # One canonical entrypoint per SDK: the text path answers it, the direct path does not.
            "layers": ["structural"] if path == "direct" else ["structural", "canonical"],
            "batch": {"max": BATCH_MAX}}


def answer(rid, outcome, diagnostics=(), encoded=None, encode_error=None, message=None):
    return {"id": rid, "outcome": outcome,
            "diagnostics": [{"path": d["path"], "code": d["code"], "severity": d["severity"]}
                            for d in diagnostics],
            "encoded": encoded, "encodeError": encode_error, "message": message}


def payload(request):
    """Returns (text, None) or (None, error message) for the request's base64 input."""
    try:
        raw = base64.b64decode(request["input"], validate=True)
    except (binascii.Error, ValueError, TypeError):
        return None, "invalid base64"
    try:
        return raw.decode("utf-8"), None  # strict: keeps a BOM, refuses lone surrogates
    except UnicodeDecodeError:
        return None, "input is not UTF-8"


def decode(table, rid, request):
    run = table.get(request["root"])
    if run is None:
        return answer(rid, "unsupported", message="no root %r in this SDK" % request["root"])
    text, problem = payload(request)
    if problem:
        return answer(rid, "error", message=problem)
    try:
        outcome, diagnostics, encode, value = run(text)
    except Exception as error:  # an SDK failure is a result, never the adapter's death
        return answer(rid, "error", message="%s: %s" % (type(error).__name__, error))
    if outcome == "rejected":
        return answer(rid, outcome, diagnostics, message=value)
    try:
        encoded = encode(value).encode("utf-8", "surrogatepass")
    except Exception as error:
        return answer(rid, outcome, diagnostics, encode_error="%s: %s" % (type(error).__name__, error))
    return answer(rid, outcome, diagnostics, base64.b64encode(encoded).decode("ascii"))


def verdict(rid, outcome, paths=(), message=None):
    return {"id": rid, "outcome": outcome, "errors": [{"path": p} for p in paths], "message": message}


def pointer(text):
    """The instance path Validator names ('a/0/b', jsonschema's path joined by '/') as a JSON
    Pointer. A key holding '/' or '~' cannot be told apart in that text; it is escaped as written."""
    return "" if not text else "/" + text.replace("~", "~0")


def validate(checker, rid, request):
    validator, documents = checker
    document = request["document"]
    if document not in documents:
        return verdict(rid, "unsupported", message="no canonical validation of %r in this SDK" % document)
    text, problem = payload(request)
    if problem:
        return verdict(rid, "error", message=problem)
    try:
        value = interop.loads(text)
    except (ValueError, RecursionError) as error:  # json's error carries the position
        return verdict(rid, "invalid", [""], "%s: %s" % (type(error).__name__, error))
    try:
        validator.validate(document, value)
    except runtime.ProtocolError as error:
        message = str(error)
        prefix = "Canonical schema rejected %s: " % document
        paths = [pointer(message[len(prefix):])] if message.startswith(prefix) else []
        return verdict(rid, "invalid", paths, message)
    except Exception as error:  # an SDK failure is a result, never the adapter's death
        return verdict(rid, "error", message="%s: %s" % (type(error).__name__, error))
    return verdict(rid, "valid")


def bench(table, rid, request):
    text, problem = payload(request)
    run = table.get(request["root"])
    if problem or run is None:
        return {"id": rid, "nanos": None, "message": problem or "unsupported root"}
    iterations = int(request["iterations"])
    start = time.perf_counter_ns()
    for _ in range(iterations):
        # As in decode, an SDK that raises has done its work on the payload: the time counts.
        try:
            outcome, _, encode, value = run(text)
            if outcome == "accepted":
                encode(value)
        except Exception:
            pass
    return {"id": rid, "nanos": time.perf_counter_ns() - start}


def handle(table, path, line, checker):
    """Returns (answer or None, exit code or None)."""
    try:
        request = json.loads(line)
    except ValueError as error:
        return answer(None, "error", message="bad request: %s: %s" % (type(error).__name__, error)), None
    if type(request) is dict and request.get("op") == "batch":
        return handle_batch(table, path, request, checker), None
    return handle_request(table, path, request, checker)


def handle_batch(table, path, request, checker):
    """The batch op: one answer per entry, in order, in one line (docs/protocol.md)."""
    bid = request.get("id") if type(request.get("id")) is int else None
    entries = request.get("requests")
    if type(entries) is not list or not entries:
        return {"id": bid, "error": "bad batch: requests must be a non-empty array"}
    if len(entries) > BATCH_MAX:
        return {"id": bid, "error": "bad batch: %d requests, at most %d" % (len(entries), BATCH_MAX)}
    answers = []
    for entry in entries:
        if type(entry) is not dict or entry.get("op") not in ("decode", "validate"):
            rid = entry.get("id") if type(entry) is dict and type(entry.get("id")) is int else None
            answers.append(answer(rid, "error", message="bad request: a batch entry is a decode or "
                                                        "validate request object"))
            continue
        answers.append(handle_request(table, path, entry, checker)[0])
    return {"id": bid, "answers": answers}


def handle_request(table, path, request, checker):
    try:
        op = request["op"]
    except (TypeError, KeyError) as error:
        return answer(None, "error", message="bad request: %s: %s" % (type(error).__name__, error)), None
    rid = request.get("id") if type(request.get("id")) is int else None
    try:
        if op == "hello":
            if request.get("protocol") != PROTOCOL:
                return {"op": "hello", "protocol": PROTOCOL,
                        "error": "unsupported protocol %s" % json.dumps(request.get("protocol"))}, 2
            return hello(path, table), None
        if op in ("decode", "bench"):
            if rid is None or not all(isinstance(request[k], str) for k in ("root", "input")):
                raise ValueError("%s needs an integer id, a string root and input" % op)
            return (decode if op == "decode" else bench)(table, rid, request), None
        if op == "validate" and path != "direct":
            if rid is None or not all(isinstance(request.get(k), str) for k in ("document", "input")):
                return verdict(rid, "error", message="bad request: validate needs an integer id, "
                                                     "a string document and input"), None
            return validate(checker, rid, request), None
        if op == "shutdown":
            return None, 0
        return answer(rid, "error", message="bad request: unknown op %r" % op), None
    except (KeyError, TypeError, ValueError) as error:
        return answer(rid, "error", message="bad request: %s: %s" % (type(error).__name__, error)), None


def main():
    args = sys.argv[1:]
    if args not in ([], ["--path", "text"], ["--path", "direct"]):
        print("usage: adapter.py [--path text|direct]", file=sys.stderr)
        return 2
    path = args[1] if args else "text"
    table = build_table(path)
    checker = build_validator() if path != "direct" else None
    out = sys.stdout
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        reply, code = handle(table, path, line, checker)
        if reply is not None:
            out.write(json.dumps(reply, ensure_ascii=True, separators=(",", ":")) + "\n")
            out.flush()
        if code is not None:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
