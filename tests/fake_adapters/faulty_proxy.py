#!/usr/bin/env python3
"""faulty_proxy.py: a protocol-v1 proxy in front of a real adapter that breaks exactly one rule.

Used by the fuzz tests (and later the seeded-fault self-test) to prove that crosscheck finds a known
fault, in the right class. Everything the inner adapter answers passes through unchanged except what
the chosen fault alters.

    faulty_proxy.py --fault unknown-enum-error -- /path/to/crosscheck serve-adapter

Faults:
  unknown-enum-error   an unknown_enum warning becomes an error and the payload is rejected
  drop-warnings        warnings are dropped from accepted answers
  lose-unknown-member  the re-encoding loses members whose name starts with "x-" or "vendor"
"""
import argparse
import base64
import json
import subprocess
import sys


def alter(answer, fault):
    if fault == "unknown-enum-error" and answer.get("outcome") == "accepted":
        diags = answer.get("diagnostics") or []
        if any(d.get("code") == "unknown_enum" for d in diags):
            for d in diags:
                if d.get("code") == "unknown_enum":
                    d["severity"] = "error"
            answer["outcome"] = "rejected"
            answer["encoded"] = None
    elif fault == "drop-warnings" and answer.get("outcome") == "accepted":
        answer["diagnostics"] = [d for d in answer.get("diagnostics") or [] if d.get("severity") != "warning"]
    elif fault == "lose-unknown-member" and answer.get("outcome") == "accepted" and answer.get("encoded"):
        value = json.loads(base64.b64decode(answer["encoded"]))

        def strip(v):
            if isinstance(v, dict):
                return {k: strip(x) for k, x in v.items() if not (k.startswith("x-") or k.startswith("vendor"))}
            if isinstance(v, list):
                return [strip(x) for x in v]
            return v

        answer["encoded"] = base64.b64encode(json.dumps(strip(value)).encode()).decode()
    return answer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fault", required=True, choices=["unknown-enum-error", "drop-warnings", "lose-unknown-member"])
    parser.add_argument("inner", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    inner = [a for a in args.inner if a != "--"]
    child = subprocess.Popen(inner, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for line in sys.stdin:
        child.stdin.write(line)
        child.stdin.flush()
        request = json.loads(line) if line.strip().startswith("{") else {}
        if request.get("op") == "shutdown":
            break
        answer_line = child.stdout.readline()
        if not answer_line:
            sys.exit(1)
        answer = json.loads(answer_line)
        if request.get("op") == "decode":
            answer = alter(answer, args.fault)
        elif request.get("op") == "hello" and "implementation" in answer:
            answer["implementation"]["name"] = "faulty-" + args.fault
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    child.wait(timeout=5)


if __name__ == "__main__":
    main()
