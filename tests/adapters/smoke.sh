#!/usr/bin/env bash
# smoke.sh: protocol smoke test for every available adapter in adapters/default.json.
#
#   tests/adapters/smoke.sh [--config FILE] [--agree A,B] [--agree-fatal] [NAME...]
#
# For each adapter (all available ones, or the NAMEs given) it starts the process, pipelines
# hello, decodes (a valid payload, an unknown root, invalid base64, non-UTF-8 bytes, invalid JSON,
# a 1 MB payload), a garbage line, a request without id and a bench, then shutdown; a second
# process must refuse protocol 999 with exit status 2. Every line is validated against
# schemas/adapter-*.schema.json. Exit status: 0 all passed, 1 a protocol violation, 2 usage.
# An adapter whose requirement is missing (e.g. AHP_GO_SDK unset) or whose program is not built
# is reported SKIPPED with the reason, never as passed.
# --agree A,B additionally decodes a fixed payload set with two adapters and reports where their
# outcome, diagnostics or (semantically compared) re-encoding differ: informational, since a
# difference is a finding rather than a protocol violation, unless --agree-fatal is given.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=python3
[ -x "$ROOT/.venv/bin/python" ] && PY=$ROOT/.venv/bin/python # has jsonschema (an SDK dependency)
exec "$PY" - "$ROOT" "$@" <<'PYEOF'
import base64, json, os, re, select, subprocess, sys, time
from decimal import Decimal

ROOT, args = sys.argv[1], sys.argv[2:]
config, agree, agree_fatal, names = os.path.join(ROOT, "adapters", "default.json"), None, False, []
while args:
    a = args.pop(0)
    if a == "--config" and args: config = args.pop(0)
    elif a == "--agree" and args: agree = args.pop(0).split(",")
    elif a == "--agree-fatal": agree_fatal = True
    elif a.startswith("-"): print(__doc__ or "usage: smoke.sh [--config F] [--agree A,B] [--agree-fatal] [NAME...]", file=sys.stderr); sys.exit(2)
    else: names.append(a)

try:
    import jsonschema
    def validator(name, ref=None):
        schema = json.load(open(os.path.join(ROOT, "schemas", name)))
        if ref: schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/" + ref}
        return jsonschema.Draft202012Validator(schema)
    SCHEMAS = {"hello": validator("adapter-hello.schema.json", "reply"),
               "refusal": validator("adapter-hello.schema.json", "refusal"),
               "answer": validator("adapter-answer.schema.json"),
               "bench": validator("adapter-bench.schema.json", "reply")}
except ImportError:
    SCHEMAS = None
    print("WARNING: python jsonschema missing: schema validation SKIPPED (protocol checks still run)")

def expand(text):
    return re.sub(r"\$\{(\w+)\}", lambda m: ROOT if m[1] == "ROOT" else os.environ.get(m[1], ""), text)

def b64(data): return base64.b64encode(data).decode()

class Violation(Exception): pass

class Adapter:
    def __init__(self, entry):
        env = dict(os.environ, **{k: expand(v) for k, v in entry.get("env", {}).items()})
        cwd = os.path.join(ROOT, expand(entry.get("cwd", ".")))
        self.p = subprocess.Popen([expand(a) for a in entry["argv"]], cwd=cwd, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buf = b""
    def send(self, obj):
        self.p.stdin.write((obj if isinstance(obj, bytes) else json.dumps(obj).encode()) + b"\n")
        self.p.stdin.flush()
    def read(self, deadline):
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0: raise Violation("timeout waiting for an answer")
            ready, _, _ = select.select([self.p.stdout], [], [], left)
            if ready:
                chunk = os.read(self.p.stdout.fileno(), 1 << 20)
                if not chunk: raise Violation("stdout closed early (exit %s); stderr: %s" % (self.p.wait(), self.stderr()))
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        try: return json.loads(line)
        except ValueError as e: raise Violation("answer is not JSON (%s): %r" % (e, line[:200]))
    def stderr(self):
        try: return self.p.stderr.read().decode(errors="replace")[-600:]
        except Exception: return ""
    def finish(self, timeout=10):
        try: return self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill(); self.p.wait(); raise Violation("did not exit within %ss after shutdown" % timeout)

def check(kind, obj, what):
    if SCHEMAS is None: return
    errors = sorted(SCHEMAS[kind].iter_errors(obj), key=lambda e: list(e.path))
    if errors: raise Violation("%s breaks the %s schema: %s at %s" % (what, kind, errors[0].message[:200], list(errors[0].path)))

def require(cond, what):
    if not cond: raise Violation(what)

def smoke(entry):
    a = Adapter(entry)
    deadline = time.monotonic() + 120
    try:
        a.send({"op": "hello", "protocol": 1})
        hello = a.read(deadline)
        check("hello", hello, "hello reply")
        require(hello.get("op") == "hello" and "error" not in hello, "hello refused: %r" % hello)
        impl, roots = hello["implementation"], hello["roots"]
        require(impl["name"] == entry["name"], "implementation.name %r is not the configured %r" % (impl["name"], entry["name"]))
        require(roots == sorted(roots) and roots, "roots empty or unsorted")
        root = "content_reference" if "content_reference" in roots else roots[0]
        big = json.dumps({"ref": "ahp://smoke", "x-big": "é" * (1 << 19)}).encode()  # ~1 MB of UTF-8
        cases = {
            1: (root, b'{"ref":"ahp://smoke/1","mediaType":"text/plain"}', None),
            2: ("no_such_root_xyz", b"{}", "unsupported"),
            4: (root, b"\xff\xfe{\xc3(}", "not-utf8"),
            5: (root, b'{"ref":', "invalid-json"),
            6: (root, big, None),
            7: (root, b"\xef\xbb\xbf{}", None),
        }
        for rid, (r, data, _) in cases.items():
            a.send({"op": "decode", "id": rid, "root": r, "input": b64(data)})
        a.send({"op": "decode", "id": 3, "root": root, "input": "@@not base64@@"})
        a.send(b"this is not json")
        a.send({"op": "decode", "root": root, "input": ""})
        a.send({"op": "bench", "id": 9, "root": root, "input": b64(cases[1][1]), "iterations": 20})
        expected = set(cases) | {3, 9}
        answers, bad = {}, []
        for _ in range(len(expected) + 2):
            ans = a.read(deadline)
            if ans.get("id") is None: bad.append(ans); check("answer", ans, "bad-request answer"); continue
            require(ans["id"] in expected, "answer for unknown id %r" % ans.get("id"))
            require(ans["id"] not in answers, "second answer for id %r" % ans["id"])
            answers[ans["id"]] = ans
        require(len(bad) == 2, "expected 2 bad-request answers with id null, got %d" % len(bad))
        bench = answers.pop(9)
        if "outcome" in bench: check("answer", bench, "bench answer (bench unsupported)")
        else: check("bench", bench, "bench reply")
        for rid, ans in answers.items():
            check("answer", ans, "answer %d" % rid)
            if ans["outcome"] == "accepted" and ans["encoded"] is not None:
                text = base64.b64decode(ans["encoded"], validate=True)
                try: json.loads(text.decode("utf-8"))
                except ValueError: raise Violation("answer %d: encoded is not UTF-8 JSON" % rid)
        require(answers[2]["outcome"] == "unsupported", "unknown root answered %r" % answers[2]["outcome"])
        require(answers[3]["outcome"] == "error" and answers[3]["message"] == "invalid base64", "invalid base64 answered %r" % answers[3])
        if impl["language"] in ("python", "rust", "typescript"):
            require(answers[4]["outcome"] == "error" and answers[4]["message"] == "input is not UTF-8", "non-UTF-8 answered %r" % answers[4])
        require(answers[5]["outcome"] == "rejected" and any(d["code"] == "invalid_json" for d in answers[5]["diagnostics"]),
                "truncated JSON answered %r" % answers[5])
        a.send({"op": "shutdown"})
        code = a.finish()
        require(code == 0, "exit status %s after shutdown" % code)
        extra = a.buf.strip()
        require(not extra, "output after the last answer: %r" % extra[:200])
        outcomes = " ".join("%d:%s" % (k, answers[k]["outcome"]) for k in sorted(answers))
        return "%s %s (%d roots; %s; bench %s)" % (impl["name"], impl["version"], len(roots), outcomes,
                                                   "%.1f ms" % (bench["nanos"] / 1e6) if bench.get("nanos") else "n/a")
    finally:
        if a.p.poll() is None: a.p.kill(); a.p.wait()

def refusal(entry):
    a = Adapter(entry)
    try:
        a.send({"op": "hello", "protocol": 999})
        ans = a.read(time.monotonic() + 60)
        check("refusal", ans, "protocol-999 refusal")
        require(ans.get("error") == "unsupported protocol 999", "protocol 999 answered %r" % ans)
        code = a.finish()
        require(code == 2, "exit status %s after refusing a protocol (want 2)" % code)
    finally:
        if a.p.poll() is None: a.p.kill(); a.p.wait()

def availability(entry):
    for var in entry.get("requires", []):
        if not os.environ.get(var): return "%s is not set" % var
    program = expand(entry["argv"][0])
    found = os.access(program, os.X_OK) if "/" in program else any(
        os.access(os.path.join(d, program), os.X_OK) for d in os.environ.get("PATH", "").split(":"))
    return None if found else "%s not found (build: %s)" % (program, entry.get("build", "?"))

PAYLOADS = [
    ("content_reference", '{"ref":"ahp://a"}'), ("content_reference", '{"ref":"ahp://a","size":null}'),
    ("content_reference", '{"ref":"ahp://a","x":{"deep":[1,1.0,1e2,-0,0.1000000000000000055511151231257827]}}'),
    ("content_reference", '{"ref":"ahp://a","ref":"ahp://b"}'), ("content_reference", '[]'),
    ("content_reference", '{"ref":"\\ud800"}'), ("deny_effect", '{"type":"deny","reason":"no"}'),
    ("deny_effect", '{"type":"deny"}'), ("effect", '{"type":"vendor.x"}'), ("effect", '{"type":"deny","reason":"r"}'),
    ("extensions", '{"a.b":{"c":9007199254740993}}'), ("content_selection", '{"default":"body","x":42}'),
    ("content_upload_receipt", '{"ref":"ahp://a","size":9007199254740992,"sha256":"00"}'),
    ("intercept_request", '{"jsonrpc":"2.0","id":1,"method":"hooks/intercept","params":{}}'),
    ("capabilities", '{"effects":["deny","vendor.effect"],"flow":{"operations":["stop"],"maxContinuations":-1}}'),
]

def semantic(text):
    return json.loads(text, parse_float=Decimal, parse_int=Decimal) if text is not None else None

def agreement(entries):
    runs = []
    for e in entries:
        a = Adapter(e); a.send({"op": "hello", "protocol": 1}); a.read(time.monotonic() + 60)
        for i, (root, text) in enumerate(PAYLOADS):
            a.send({"op": "decode", "id": i, "root": root, "input": b64(text.encode())})
        got = {}
        for _ in PAYLOADS:
            ans = a.read(time.monotonic() + 60); got[ans["id"]] = ans
        a.send({"op": "shutdown"}); a.finish(); runs.append(got)
    differ = 0
    for i, (root, text) in enumerate(PAYLOADS):
        x, y = runs[0][i], runs[1][i]
        key = lambda ans: (ans["outcome"], sorted((d["path"], d["code"], d["severity"]) for d in ans["diagnostics"]),
                           semantic(base64.b64decode(ans["encoded"]).decode() if ans["encoded"] else None))
        same = key(x) == key(y)
        differ += not same
        print("  %s %-24s %-60s %s %s" % ("same" if same else "DIFF", root, text[:60], x["outcome"], "" if same else
              "| %s: %s %s | %s: %s %s" % (entries[0]["name"], x["outcome"], x["diagnostics"], entries[1]["name"], y["outcome"], y["diagnostics"])))
    return differ

entries = json.load(open(config))
if names:
    unknown = set(names) - {e["name"] for e in entries}
    if unknown: print("ERROR: unknown adapter(s): %s" % ", ".join(sorted(unknown)), file=sys.stderr); sys.exit(2)
    entries = [e for e in entries if e["name"] in names]
passed = failed = skipped = 0
for entry in entries:
    why = availability(entry)
    if why:
        skipped += 1; print("SKIPPED %-18s unavailable: %s" % (entry["name"], why)); continue
    try:
        summary = smoke(entry); refusal(entry)
        passed += 1; print("PASSED  %-18s %s" % (entry["name"], summary))
    except (Violation, KeyError, TypeError, OSError) as e:
        failed += 1; print("FAILED  %-18s protocol violation: %s: %s" % (entry["name"], type(e).__name__, e))
if agree:
    chosen = [next((e for e in json.load(open(config)) if e["name"] == n), None) for n in agree]
    if None in chosen or any(availability(e) for e in chosen):
        print("agreement %s: SKIPPED (unknown or unavailable adapter)" % ",".join(agree))
    else:
        print("agreement %s on %d payloads:" % (" vs ".join(agree), len(PAYLOADS)))
        differ = agreement(chosen)
        print("agreement: %d same, %d differ" % (len(PAYLOADS) - differ, differ))
        if differ and agree_fatal: failed += 1
print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
sys.exit(1 if failed else 0)
PYEOF
