#!/usr/bin/env python3
"""write_seeds.py: writes the hand-written seed corpora of the fuzz targets (fuzz/corpus/<target>/).

Each file is named by the sha1 of its content (libFuzzer's own naming), so re-running adds nothing
twice and never removes a file: reproducers that fuzzing found stay beside the seeds for good.

Decoder targets (fuzz_decode, fuzz_structured): byte 0 selects the root, as the index of the root in
the IR's sorted root list (ROOTS below, the pinned bundle's 31 roots); the payload follows.
fuzz_json gets raw JSON texts.

Usage: fuzz/write_seeds.py [--check path/to/crosscheck]
With --check, every decoder seed is first decoded with `crosscheck decode` and must have the
outcome written next to it (accept / warn = accepted with a warning / reject); nothing is written if
one differs.
"""
import hashlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# The IR's roots, sorted by snake_name (crosscheck schema lists them in this order).
ROOTS = """capabilities capabilities_request capabilities_response catalogue_event configuration
configuration_request configuration_response content_item content_reference content_selection
content_upload content_upload_receipt deny_effect effect event execution_event extensions
interaction_event intercept_deny_response intercept_no_effect_response intercept_request
intercept_response json_rpc_message observe_notification registration session_end_event
session_start_event task_workspace_event tool_after_event tool_before_event wire_message""".split()
assert len(ROOTS) == 31


def tool_before_event(call_id, tool_input, extra=""):
    return (
        '{"type":"tool.before","id":"evt_' + call_id + '","source":"urn:example:agent:cli",'
        '"time":"2027-01-05T08:30:00.250Z","harness":{"name":"example-cli","version":"0.9.1"},'
        '"session":{"id":"ses_a1b2","cwd":"/srv/app","workspaceRoots":["/srv/app","/srv/lib"],'
        '"model":"m-medium","agent":{"id":"root","type":"coding"},"counters":{"turns":3,"toolCalls":7}},'
        '"turn":{"id":"turn-3"},"call":{"id":"' + call_id + '"},'
        '"tool":{"name":"write_file","kind":"edit","input":' + tool_input + ',"origin":"native"},'
        '"path":"write_file"' + extra + "}"
    )


def intercept_request(event, effects='["deny","allow","message"]', id_='"req-1"'):
    return (
        '{"jsonrpc":"2.0","id":' + id_ + ',"method":"hooks/intercept","params":{"protocolVersion":"draft",'
        '"event":' + event + ',"capabilities":{"effects":' + effects + '},'
        '"state":{"permission":"ask","candidate":null,"instructions":["Keep diffs small."]}}}'
    )


def lines_input(n):
    """A tool input of n lines of varied JSON: what a 1-4 KB real message carries."""
    rows = ",".join(
        '{"n":%d,"text":"line %d: caf\\u00e9 \\"quoted\\" \\\\ tab\\t","ok":%s,"w":%s,"tags":["a",null,%d]}'
        % (i, i, "true" if i % 2 else "false", ["0.5", "1E3", "-0", "12.250"][i % 4], i * 7)
        for i in range(n)
    )
    return '{"path":"/srv/app/notes.md","mode":"append","rows":[' + rows + "]}"


TOOL_BEFORE = tool_before_event("call_17", '{"path":"src/main.rs","content":"fn main() {}\\n","createDirs":true}',
                                ',"items":[{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body",'
                                '"text":"fn main() {}"}]')
TOOL_AFTER = (
    '{"type":"tool.after","id":"evt_18","source":"urn:example:agent:cli","time":"2027-01-05T08:30:01Z",'
    '"harness":{"name":"example-cli","version":"0.9.1"},"session":{"id":"ses_a1b2"},"turn":{"id":"turn-3"},'
    '"call":{"id":"call_17"},"tool":{"name":"write_file","input":{"path":"src/main.rs"},"origin":"native"},'
    '"path":"write_file","outcome":"ok","execution":{"status":"executed"},"durationMs":12.5,"items":[]}'
)

# (root, payload, expected outcome). Payloads are bytes or str (UTF-8 encoded).
DECODE_SEEDS = [
    # Valid messages of several roots.
    ("intercept_request", intercept_request(TOOL_BEFORE), "accept"),
    ("intercept_request", intercept_request(tool_before_event("call_20", lines_input(14))), "accept"),
    ("intercept_request", intercept_request(tool_before_event("call_21", lines_input(34)), id_="4096"), "accept"),
    ("observe_notification",
     '{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":' + TOOL_AFTER + "}}",
     "accept"),
    ("tool_before_event", TOOL_BEFORE, "accept"),
    ("tool_after_event", TOOL_AFTER, "accept"),
    ("intercept_response",
     '{"jsonrpc":"2.0","id":"req-1","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"no '
     'writes outside src/","code":"org.example.scope"},{"type":"message","text":"Use src/ instead."},'
     '{"type":"flow","operation":"continue","instruction":"retry"}]}}', "accept"),
    ("intercept_deny_response", '{"jsonrpc":"2.0","id":null,"result":{"protocolVersion":"draft"}}', "accept"),
    ("intercept_no_effect_response", '{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"draft","effects":[]}}',
     "accept"),
    ("capabilities_request",
     '{"jsonrpc":"2.0","id":0,"method":"hooks/capabilities","params":{"protocolVersion":"draft"}}', "accept"),
    ("wire_message", '{"jsonrpc":"2.0","id":"c-2","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}',
     "accept"),
    ("json_rpc_message", '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found","data":[1]}}',
     "accept"),
    ("capabilities", '{"effects":["deny","ask","modify"],"flow":{"operations":["stop"],"maxContinuations":2}}',
     "accept"),
    ("effect", '{"type":"allow"}', "accept"),
    ("effect", '{"type":"modify","target":"input","operation":"merge","value":{"dryRun":true}}', "accept"),
    ("deny_effect", '{"type":"deny","reason":"r","extensions":{"org.example":{"k":[1,2,{}]}}}', "accept"),
    ("content_reference", '{"ref":"upl_7Q"}', "accept"),
    ("content_upload_receipt", '{"ref":"upl_7Q","sha256":"00ff","size":9007199254740991}', "accept"),
    ("content_selection", '{"default":"metadata","text":"body","org.example.logs":"omit"}', "accept"),
    ("registration",
     '{"protocolVersion":"draft","hooks":[{"id":"org.example.guard","transport":{"type":"stdio","command":"guard",'
     '"args":["--strict"],"lifecycle":"persistent","env":{"MODE":"strict"}},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":1500,'
     '"failurePolicy":"fail-open","content":{"default":"omit"}}]}]}', "accept"),
    ("extensions", '{"a":' + "[" * 900 + "]" * 900 + "}", "accept"),
    # More 1-4 KB messages (bench/fuzz_exec_rate.sh fuzzes from the seeds of that size).
    ("observe_notification",
     '{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":'
     + TOOL_AFTER.replace('{"path":"src/main.rs"}', lines_input(10)) + "}}", "accept"),
    ("intercept_response",
     '{"jsonrpc":"2.0","id":"req-9","result":{"protocolVersion":"draft","effects":['
     + ",".join('{"type":"message","text":"note %d: \\u00e9t\\u00e9 \\ud83d\\ude00"}' % i for i in range(24))
     + ',{"type":"modify","target":"input","operation":"replace","value":' + lines_input(4) + "}]}}", "accept"),
    ("json_rpc_message",
     '{"jsonrpc":"2.0","id":"req-10","error":{"code":-32000,"message":"backend failed","data":' + lines_input(12)
     + "}}", "accept"),
    ("wire_message", intercept_request(tool_before_event("call_22", lines_input(8)), id_="-12"), "accept"),
    # Contract edges: warnings.
    ("capabilities", '{"effects":["teleport"]}', None),
    ("effect", '{"type":"org.example.custom","payload":1}', "reject"),  # Effect has no discriminator
    ("content_selection", '{"default":"summarize"}', "warn"),
    # Contract edges: rejections.
    ("effect", '{"type":"deny"}', "reject"),
    ("effect", '{"type":"allow","type":"deny"}', "reject"),
    ("effect", '{"type":"deny","reason":"x","type":"allow"}', "accept"),
    ("content_reference", '{"ref":"upl_7Q","size":null}', "reject"),
    ("content_reference", '{"ref":null}', "reject"),
    ("content_upload_receipt", '{"ref":"r","sha256":"s","size":9007199254740992}', "reject"),
    ("content_upload_receipt", '{"ref":"r","sha256":"s","size":1E2}', "accept"),
    ("content_upload_receipt", '{"ref":"r","sha256":"s","size":-0}', "accept"),
    ("content_upload_receipt", '{"ref":"r","sha256":"s","size":1.5}', "reject"),
    ("content_upload_receipt", '{"ref":"r","sha256":"s","size":-1}', "reject"),
    ("content_upload_receipt", '{"ref":"r","sha256":"s","size":1e400}', "reject"),
    ("content_upload_receipt", '{"ref":"r","sha256":"s","size":123456789012345678901234567890}', "reject"),
    ("deny_effect", '{"type":"deny","reason":"\\ud800 lone high, \\udfff lone low"}', "accept"),
    ("deny_effect", '{"type":"deny","reason":"pair \\ud83d\\ude00, raw \u2028 and \u00e9, nul \\u0000"}', "accept"),
    ("deny_effect", b'{"type":"deny","reason":"bad \xc3\x28 utf-8"}', "reject"),
    ("deny_effect", b'{"type":"deny","reason":"surrogate \xed\xa0\x80 raw"}', "reject"),
    ("deny_effect", b'\xef\xbb\xbf{"type":"deny","reason":"bom"}', "reject"),
    ("deny_effect", '{"type":"deny","reason":"tab\tin string"}', "reject"),
    ("deny_effect", '{"type":"deny","reason":"r"', "reject"),
    ("deny_effect", '{"type":"deny","reason":"r"} {}', "reject"),
    ("deny_effect", b'{"type":"deny","reason":"r"}\x00', "reject"),
    ("deny_effect", "", "reject"),
    ("deny_effect", " \t\r\n", "reject"),
    ("extensions", '{"a":' + "[" * 1001 + "]" * 1001 + "}", "reject"),
    ("intercept_request", intercept_request(TOOL_BEFORE.replace('"origin":"native"', '"origin":"plugin"')), "warn"),
    ("intercept_request", intercept_request(TOOL_BEFORE.replace('"type":"tool.before"', '"type":"tool.sideways"')),
     None),
    ("intercept_request", intercept_request(TOOL_BEFORE.replace('"turn":{"id":"turn-3"},', '"outcome":"ok",')),
     "reject"),
    ("observe_notification", '{"jsonrpc":"2.0","id":1,"method":"hooks/observe","params":{"protocolVersion":"draft",'
     '"event":' + TOOL_AFTER + "}}", "reject"),
]

JSON_SEEDS = [
    b"{}", b"[]", b"0", b"-0", b"1E+2", b"-1.5e-3", b"true", b"null", b'""', b" [ 1 , 2 ]\r\n",
    b'{"a":1,"a":2,"b":{"a":[],"a":{}}}',
    b'["\\ud800","\\udfff","\\ud83d\\ude00","\\uD83D\\uDE00","\\ud800\\u0041","\\udc00\\ud800"]',
    '["caf\u00e9","\u2028\u2029","\U0001f600","\\u00e9","\\/\\b\\f\\n\\r\\t\\"\\\\"]'.encode(),
    b'[9007199254740991,9007199254740992,9007199254740993,1e400,1e-400,1E999999999999999999,0.000,10E-1]',
    b'{"deep":' + b"[" * 999 + b"]" * 999 + b"}",
    b"[" * 1001 + b"]" * 1001,
    b"\xef\xbb\xbf{}", b'["\xc3\x28"]', b'["\xed\xa0\x80"]', b'["\xc0\xaf"]', b'["\xf4\x90\x80\x80"]',
    b'["\x00"]', b"[01]", b"[1.]", b"[+1]", b"[NaN]", b'{"a" 1}', b"[1,]", b'{"a":1,}', b'"\\x41"', b'"\\ud8"',
    b"\x0c[]", b"", b"[1] [2]",
]


def write(target, payload):
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, hashlib.sha1(payload).hexdigest())
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(payload)
        return 1
    return 0


def outcome_of(crosscheck, root, payload):
    with tempfile.NamedTemporaryFile() as f:
        f.write(payload)
        f.flush()
        run = subprocess.run([crosscheck, "decode", "--root", root, f.name], capture_output=True, text=True)
    if run.returncode == 1:
        return "reject"
    if run.returncode != 0:
        sys.exit("ERROR: crosscheck decode failed: " + run.stderr)
    return "warn" if '"severity":"warning"' in run.stdout else "accept"


def main():
    crosscheck = None
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        crosscheck = sys.argv[2]
    elif len(sys.argv) != 1:
        sys.exit(__doc__)
    decode = [(r, p.encode() if isinstance(p, str) else p, e) for r, p, e in DECODE_SEEDS]
    if crosscheck:
        wrong = []
        for root, payload, expected in decode:
            got = outcome_of(crosscheck, root, payload)
            if expected and got != expected:
                wrong.append("%s %s: expected %s, got %s" % (root, payload[:80], expected, got))
        if wrong:
            sys.exit("ERROR: seeds with another outcome than written:\n  " + "\n  ".join(wrong))
    added = 0
    for root, payload, expected in decode:
        selected = bytes([ROOTS.index(root)]) + payload
        added += write("fuzz_decode", selected)
        # The structure-aware target mutates parsed JSON: give it what parses.
        if expected != "reject" or payload.startswith(b"{"):
            added += write("fuzz_structured", selected)
    for payload in JSON_SEEDS:
        added += write("fuzz_json", payload)
    print("added %d seed files" % added)


if __name__ == "__main__":
    main()
