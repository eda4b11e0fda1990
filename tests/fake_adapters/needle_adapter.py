#!/usr/bin/env python3
"""needle_adapter.py: a protocol-v1 adapter with planted faults, for the reducer's tests and benchmark.

Modes:
  needle_adapter.py [FAULTS]                  standalone: any strict JSON text is accepted and
                                              re-encoded as given (no warnings); other text is
                                              rejected with invalid_json at ""
  needle_adapter.py [FAULTS] -- CMD ARGS...   a proxy in front of a real adapter (for example
                                              `crosscheck serve-adapter`): answers pass through
                                              unless a fault applies

Faults:
  --needle NAME   a JSON payload holding an object with a member NAME, at any depth (duplicate keys
                  included), is rejected: invalid_type at that member. The C++ decoder keeps unknown
                  members, so this is an acceptance divergence wherever the payload is otherwise valid.
                  Default "needle"; "" turns it off.
  --marker TEXT   a payload whose raw bytes contain TEXT makes the adapter raise (outcome "error"),
                  whether or not it is JSON.
stdlib only.
"""
import argparse
import base64
import json
import subprocess
import sys


class Pairs(list):
    """An object as its list of members, so duplicate keys stay visible."""


def pointer_token(key):
    return key.replace("~", "~0").replace("/", "~1")


def find_needle(value, name, path=""):
    if isinstance(value, Pairs):
        for key, item in value:
            here = path + "/" + pointer_token(key)
            if key == name:
                return here
            found = find_needle(item, name, here)
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = find_needle(item, name, "%s/%d" % (path, i))
            if found is not None:
                return found
    return None


def parse(raw):
    """The payload as Pairs/lists/scalars, or None when it is not strict JSON text."""
    try:
        text = raw.decode("utf-8")

        def no_constants(name):
            raise ValueError("not JSON: " + name)

        return True, json.loads(text, object_pairs_hook=Pairs, parse_constant=no_constants)
    except (ValueError, RecursionError):
        return False, None


def answer(rid, outcome, diagnostics=(), encoded=None, message=None):
    return {"id": rid, "outcome": outcome, "diagnostics": list(diagnostics), "encoded": encoded,
            "encodeError": None, "message": message}


def planted(args, request):
    """The planted answer for a decode request, or None when no fault applies."""
    raw = base64.b64decode(request["input"])
    rid = request["id"]
    if args.marker and args.marker.encode() in raw:
        return answer(rid, "error", message="planted fault: the input contains " + args.marker)
    if args.needle:
        ok, value = parse(raw)
        where = find_needle(value, args.needle) if ok else None
        if where is not None:
            return answer(rid, "rejected", [{"path": where, "code": "invalid_type", "severity": "error"}])
    return None


def standalone(request):
    raw = base64.b64decode(request["input"])
    ok, _ = parse(raw)
    if not ok:
        return answer(request["id"], "rejected", [{"path": "", "code": "invalid_json", "severity": "error"}])
    return answer(request["id"], "accepted", encoded=request["input"])


def hello():
    return {"op": "hello", "protocol": 1,
            "implementation": {"name": "planted", "language": "python", "version": "0.0.1",
                               "languageVersion": sys.version.split()[0], "os": sys.platform},
            "lock": None, "schemaBundle": None, "roots": []}


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    sys.setrecursionlimit(20000)
    parser = argparse.ArgumentParser()
    parser.add_argument("--needle", default="needle")
    parser.add_argument("--marker", default="")
    parser.add_argument("inner", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    inner = [a for a in args.inner if a != "--"]
    child = None
    if inner:
        child = subprocess.Popen(inner, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for line in sys.stdin:
        request = json.loads(line) if line.strip().startswith("{") else {}
        op = request.get("op")
        if op == "decode":
            reply = planted(args, request)
            if reply is not None:
                send(reply)
                continue
        if child is None:
            if op == "hello":
                send(hello())
            elif op == "decode":
                send(standalone(request))
            elif op == "shutdown":
                break
            continue
        child.stdin.write(line)
        child.stdin.flush()
        if op == "shutdown":
            break
        reply_line = child.stdout.readline()
        if not reply_line:
            sys.exit(1)
        reply = json.loads(reply_line)
        if op == "hello" and "implementation" in reply:
            reply["implementation"]["name"] = "planted"
        send(reply)
    if child is not None:
        child.wait(timeout=5)


if __name__ == "__main__":
    main()
