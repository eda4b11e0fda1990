#!/usr/bin/env python3
"""html_report_chromium.py CROSSCHECK: the HTML report of a hostile finding, opened in headless Chromium.

Builds a run folder whose finding carries `</script><script>...`, `<img onerror>`, markup and
invalid UTF-8 (in the payload and in every other string an SDK or a file can control), writes the
report with `crosscheck report`, loads it in Chromium and checks from the rendered DOM that nothing
ran (title unchanged, no injected element) and that the page rendered (headings, payload as text).
The same page without its Content-Security-Policy is checked too, so the escaping is tested on its
own, and a control page proves that this Chromium does run scripts (or the test could not fail).
Chromium missing is a failure, not a skip: ./setup installs the Debian package.
"""
import base64, hashlib, json, os, re, shutil, subprocess, sys, tempfile

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PWN = "document.title='pwned';document.body.insertAdjacentHTML('beforeend','<p id=pwned-js>ran</p>')"
PAYLOAD = (
    b'{"kind":"</script><script>' + PWN.encode() + b'</script>",'
    b'"x":"<img src=x onerror=\\"' + PWN.encode().replace(b'"', b'\\"') + b'\\">",'
    b'"m":"<b id=injected-markup>markup</b><iframe src=javascript:alert(1)></iframe><svg onload=alert(1)>",'
    b'"u":"\xff\xfe\xed\xa0\x80 \x1b[31m"}'
)
HOSTILE = "<script>" + PWN + "</script><img src=x onerror=\"" + PWN + "\"><b id=injected-text>x</b>"

failures = []


def check(name, ok, detail=""):
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    if not ok:
        failures.append(name)


def make_run(root):
    os.makedirs(os.path.join(root, "findings"))
    hash_ = hashlib.sha256(b"effect\n" + PAYLOAD).hexdigest()[:40]
    name = "diverge-%s.json" % hash_
    finding = {
        "format": "crosscheck-finding/1", "crosscheckVersion": "test", "id": hash_, "root": "effect",
        "input": {"base64": base64.b64encode(PAYLOAD).decode(), "text": None, "bytes": len(PAYLOAD)},
        "traits": ["invalid-utf8", HOSTILE],
        "divergences": [{"class": "acceptance", "implementations": ["cpp", "python"], "detail": HOSTILE,
                         "implementationDefined": False, "bucket": "0123456789abcdef", "signature": HOSTILE}],
        "results": [
            {"implementation": "cpp", "outcome": "rejected", "diagnostics": [
                {"path": "/kind" + HOSTILE, "code": HOSTILE, "severity": "error"}],
             "encoded": None, "encodeError": None, "message": None, "stderrTail": None},
            {"implementation": "python", "outcome": "accepted", "diagnostics": [],
             "encoded": HOSTILE, "encodeError": HOSTILE, "message": HOSTILE, "stderrTail": HOSTILE + "\n\x07"},
        ],
        "seed": 1, "source": HOSTILE, "replay": "crosscheck replay " + HOSTILE,
    }
    with open(os.path.join(root, "findings", name), "w") as f:
        json.dump(finding, f)
    with open(os.path.join(root, "run.json"), "w") as f:
        json.dump({"format": "crosscheck-fuzz/1", "seed": 1, "roots": [], "implementations": "cpp,python",
                   "schema": HOSTILE}, f)
    with open(os.path.join(root, "summary.json"), "w") as f:
        json.dump({"format": "crosscheck-summary/1", "generated": 100, "sent": 10, "divergentInputs": 1,
                   "contractInputs": 1, "buckets": 1, "byClass": {"acceptance": 1, HOSTILE: 1},
                   "byRoot": {"effect": 1}, "byImplementation": {"python": 1}, "coveragePercent": 12.5,
                   "crosscheckVersion": HOSTILE, "seed": 1, "elapsed": 3, "strict": False,
                   "roots": ["effect"], "bucketRoots": {"0123456789abcdef": ["effect"]},
                   "implementations": [{"name": "cpp", "version": HOSTILE}, {"name": "python", "version": "0.10.1"}],
                   "skewTable": {"effect": {"cpp": "aaaa", "python": "aaaa"}, HOSTILE: {"cpp": HOSTILE}},
                   "skewedRoots": [HOSTILE]}, f)
    with open(os.path.join(root, "coverage.json"), "w") as f:
        json.dump({"tracked": 8, "reachedAccepted": 1, "reachedRejected": 1, "percent": 12.5,
                   "percentAll": 12.5, "flags": [[1, 1], [2, 2]], "unreached": {"neverAccepted": [HOSTILE], "neverRejected": []}}, f)
    with open(os.path.join(root, "events.jsonl"), "w") as f:
        f.write(json.dumps({"t": 0, "event": "start", "implementations": ["cpp", "python"], "resumed": False}) + "\n")
        f.write(json.dumps({"t": 1.5, "event": "progress", "generated": 50, "sent": 5, "divergentInputs": 0,
                            "contractInputs": 0, "buckets": 0, "findings": 0, "coverage": 10,
                            "inputsPerSecond": 33, "sentPerSecond": 3}) + "\n")
        f.write(json.dumps({"t": 2, "event": "finding", "file": "findings/" + HOSTILE, "bucket": HOSTILE,
                            "class": "acceptance", "root": "effect", "implementations": ["python"],
                            "implementationDefined": False, "newBucket": True}) + "\n")
        f.write(json.dumps({"t": 3, "event": "progress", "generated": 100, "sent": 10, "divergentInputs": 1,
                            "contractInputs": 1, "buckets": 1, "findings": 1, "coverage": 12.5,
                            "inputsPerSecond": 33, "sentPerSecond": 3}) + "\n")
    return name


def dump_dom(path, profile):
    cmd = [CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
           "--user-data-dir=" + profile, "--virtual-time-budget=3000", "--dump-dom", "file://" + path]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=90)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def title_of(dom):
    m = re.search(r"<title>(.*?)</title>", dom, re.S)
    return m.group(1) if m else None


def check_report_dom(label, dom):
    check(label + ": page rendered (DOM dumped)", "<h1>crosscheck report</h1>" in dom, dom[:300])
    check(label + ": title unchanged", title_of(dom) == "crosscheck report", repr(title_of(dom)))
    lower = dom.lower()
    for tag in ("<script", "<img", "<iframe", "<svg onload", "<b id=\"injected", "<b id=injected"):
        check(label + ": no %s element in the DOM" % tag, tag not in lower, tag)
    for marker in ("pwned-js", "injected-markup", "injected-text"):
        check(label + ": no element with id " + marker, 'id="' + marker + '"' not in dom, marker)
    check(label + ": payload script shown as text",
          "&lt;/script&gt;&lt;script&gt;document.title='pwned'" in dom)
    check(label + ": payload markup shown as text", "&lt;b id=injected-markup&gt;markup&lt;/b&gt;" in dom)
    check(label + ": invalid UTF-8 shown as \\x escapes", "\\xff" in dom and "\\xed" in dom)
    check(label + ": control character shown as a marked escape", '<span class="esc">\\u001b</span>[31m' in dom)
    for heading in ("Roots × implementations", "Throughput and findings over the run", "Buckets",
                    "Finding files", "Schema skew", "Schema coverage", "Implementations"):
        check(label + ": heading " + heading, re.search(r"<h2[^>]*>" + re.escape(heading) + "</h2>", dom) is not None)
    check(label + ": plot rendered", "<polyline" in dom)
    check(label + ": replay command shown", "crosscheck replay " in dom)


def main():
    if len(sys.argv) != 2:
        print("usage: html_report_chromium.py CROSSCHECK", file=sys.stderr)
        return 2
    crosscheck = sys.argv[1]
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        print("FAIL: Chromium not found at %s: install the Debian package 'chromium' (./setup install does)"
              % CHROMIUM)
        return 1
    tmp = tempfile.mkdtemp(prefix="crosscheck-html-")
    try:
        run = os.path.join(tmp, "run")
        finding = make_run(run)
        out = os.path.join(tmp, "out")
        r = subprocess.run([crosscheck, "report", run, "--out", out], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        check("crosscheck report exits 0", r.returncode == 0, r.stderr.decode("utf-8", "replace"))
        html_path = os.path.join(out, "report.html")
        html = open(html_path, "rb").read().decode("utf-8")
        check("report names the finding's replay command", "crosscheck replay " + os.path.join(run, "findings", finding) in html)

        # Control: this Chromium runs a page's script, so "nothing ran" below means something.
        control = os.path.join(tmp, "control.html")
        with open(control, "w") as f:
            f.write("<!DOCTYPE html><html><head><title>control</title></head><body><script>" + PWN +
                    "</script></body></html>")
        rc, dom, err = dump_dom(control, os.path.join(tmp, "profile0"))
        check("control: Chromium runs scripts (title became pwned)", title_of(dom) == "pwned",
              "rc=%d title=%r stderr=%s" % (rc, title_of(dom), err[-500:]))

        rc, dom, err = dump_dom(html_path, os.path.join(tmp, "profile1"))
        check("report: Chromium exit 0", rc == 0, err[-500:])
        check_report_dom("report", dom)

        # The same page without its policy: the escaping alone must hold.
        no_csp = os.path.join(tmp, "no-csp.html")
        stripped = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
        check("no-csp copy really lost its policy", "Content-Security-Policy" not in stripped)
        with open(no_csp, "w") as f:
            f.write(stripped)
        rc, dom, err = dump_dom(no_csp, os.path.join(tmp, "profile2"))
        check_report_dom("without CSP", dom)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
