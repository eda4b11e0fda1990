#!/usr/bin/env python3
"""Run crosscheck's structural-acceptance matrix against the installed Python AHP SDK.

For every case: parse_<root>(raw value text) must give ok == accepted and
any(warning diagnostic) == warning; an accepted value must re-encode (encode_<root>)
to JSON semantically equal to the case's value. Disagreements listed in the
allowlist (python-known.json, {"case id": "reason"}) are recorded divergences and
do not fail the run; stale or unknown allowlist entries do.

Stdlib plus the installed `agenthooksprotocol` package only. Run it with the
project venv:  .venv/bin/python scripts/check_matrix_python.py [--matrix F] [--known F]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_MATRIX = REPO / "tests" / "data" / "matrix" / "draft-structural.json"
DEFAULT_KNOWN = REPO / "tests" / "data" / "matrix" / "python-known.json"
CASE_KEYS = ("id", "root", "value", "accepted", "warning")
ID_RE = re.compile(r"^([a-z][a-z0-9_]*)/[a-z0-9]+(?:-[a-z0-9]+)*$")
_WS = " \t\r\n"


class MatrixError(Exception):
    pass


def _loads(text: str) -> Any:
    # Decimal keeps 1.0 / 1E2 / long fractions exact; ints stay int.
    return json.loads(text, parse_float=Decimal, parse_int=int)


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


def _expect(text: str, pos: int, char: str) -> int:
    pos = _skip_ws(text, pos)
    if pos >= len(text) or text[pos] != char:
        raise MatrixError(f"expected {char!r} at offset {pos}")
    return pos + 1


_DECODER = json.JSONDecoder(parse_float=Decimal, parse_int=int)


def _value_end(text: str, pos: int) -> int:
    """End offset of the JSON value starting at pos (raw_decode validates it)."""
    try:
        _, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as error:
        raise MatrixError(f"bad JSON value at offset {pos}: {error.msg}") from None
    return end


def _member_spans(text: str, pos: int) -> tuple[dict[str, tuple[int, int]], int]:
    """Spans of the top-level members of the object at pos: {key: (start, end)}, end of object."""
    pos = _expect(text, pos, "{")
    spans: dict[str, tuple[int, int]] = {}
    pos = _skip_ws(text, pos)
    if text.startswith("}", pos):
        return spans, pos + 1
    while True:
        pos = _skip_ws(text, pos)
        key_end = _value_end(text, pos)
        key = json.loads(text[pos:key_end])
        if not isinstance(key, str):
            raise MatrixError(f"object key expected at offset {pos}")
        pos = _expect(text, key_end, ":")
        start = _skip_ws(text, pos)
        end = _value_end(text, start)
        if key in spans:
            raise MatrixError(f"duplicate key {key!r} at offset {start}")
        spans[key] = (start, end)
        pos = _skip_ws(text, end)
        if text.startswith(",", pos):
            pos += 1
            continue
        return spans, _expect(text, pos, "}")


def load_cases(path: Path) -> list[dict[str, Any]]:
    """Cases with their value's raw text ("valueText"), sliced out of the file."""
    text = path.read_text(encoding="utf-8")
    document = _loads(text)  # whole-file validity check
    if not isinstance(document, dict) or not isinstance(document.get("cases"), list):
        raise MatrixError("matrix must be an object with a 'cases' array")
    if not isinstance(document.get("contract"), str):
        raise MatrixError("matrix must carry a 'contract' string")
    top, _ = _member_spans(text, _skip_ws(text, 0))
    start, end = top["cases"]
    pos = _expect(text, start, "[")
    cases: list[dict[str, Any]] = []
    pos = _skip_ws(text, pos)
    if text.startswith("]", pos):
        return cases
    while True:
        spans, pos = _member_spans(text, _skip_ws(text, pos))
        if set(spans) != set(CASE_KEYS):
            raise MatrixError(f"case #{len(cases)} has keys {sorted(spans)}, want {list(CASE_KEYS)}")
        entry = {key: _loads(text[a:b]) for key, (a, b) in spans.items()}
        a, b = spans["value"]
        entry["valueText"] = text[a:b]
        cases.append(entry)
        pos = _skip_ws(text, pos)
        if text.startswith(",", pos):
            pos += 1
            continue
        _expect(text, pos, "]")
        break
    if len(cases) != len(document["cases"]):
        raise MatrixError("span walk and json.loads disagree on the number of cases")
    return cases


def json_equal(left: Any, right: Any) -> bool:
    """Semantic JSON equality: exact decimal numbers, bool is not a number, key order ignored."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, Decimal)) and isinstance(right, (int, Decimal)):
        return Decimal(left) == Decimal(right)
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(json_equal(a, b) for a, b in zip(left, right))
    if left is None or right is None:
        return left is right
    return type(left) is type(right) and left == right


def validate(cases: list[dict[str, Any]], roots: set[str]) -> list[str]:
    problems: list[str] = []
    seen: set[str] = set()
    accepted_roots: set[str] = set()
    for case in cases:
        cid = case["id"]
        match = ID_RE.match(cid) if isinstance(cid, str) else None
        if not match or match.group(1) != case["root"]:
            problems.append(f"MATRIX {cid!r}: id must be '<root>/<kebab-slug>' for root {case['root']!r}")
        if cid in seen:
            problems.append(f"MATRIX {cid}: duplicate id")
        seen.add(cid)
        if case["root"] not in roots:
            problems.append(f"MATRIX {cid}: unknown root {case['root']!r}")
        if type(case["accepted"]) is not bool or type(case["warning"]) is not bool:
            problems.append(f"MATRIX {cid}: accepted/warning must be booleans")
        elif case["warning"] and not case["accepted"]:
            problems.append(f"MATRIX {cid}: a rejected case cannot expect a warning")
        elif case["accepted"]:
            accepted_roots.add(case["root"])
    for root in sorted(roots - accepted_roots):
        problems.append(f"MATRIX root {root}: no accepted case")
    return problems


def check_case(generated: Any, case: dict[str, Any]) -> list[str]:
    root = case["root"]
    parse = getattr(generated, "parse_" + root)
    encode = getattr(generated, "encode_" + root)
    try:
        result = parse(case["valueText"])
    except Exception as error:  # noqa: BLE001 - an exception is itself a finding
        return [f"parse raised {type(error).__name__}: {error}"]
    diagnostics = result.get("diagnostics", ())
    ok = bool(result.get("ok"))
    warned = any(d.get("severity") == "warning" for d in diagnostics)
    issues: list[str] = []
    if ok != case["accepted"]:
        shown = ", ".join(f"{d.get('path')!r}:{d.get('code')}" for d in diagnostics if d.get("severity") == "error")
        issues.append(f"accepted={ok}, want {case['accepted']}" + (f" [{shown}]" if shown else ""))
    if ok and warned != case["warning"]:
        shown = ", ".join(f"{d.get('path')!r}:{d.get('code')}" for d in diagnostics if d.get("severity") == "warning")
        issues.append(f"warning={warned}, want {case['warning']}" + (f" [{shown}]" if shown else ""))
    if ok and case["accepted"]:
        try:
            encoded = encode(result["value"])
            again = _loads(encoded)
        except Exception as error:  # noqa: BLE001
            issues.append(f"encode/re-parse raised {type(error).__name__}: {error}")
        else:
            if not json_equal(again, case["value"]):
                issues.append(f"round trip changed the value: {encoded[:200]}")
    return issues


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matrix", type=Path, default=DEFAULT_MATRIX)
    parser.add_argument("--known", type=Path, default=DEFAULT_KNOWN)
    parser.add_argument("--verbose", action="store_true", help="also print known divergences")
    args = parser.parse_args(argv)

    import agenthooksprotocol.generated as generated  # the SDK under test

    roots = {name[len("parse_"):] for name in dir(generated) if name.startswith("parse_")}
    try:
        cases = load_cases(args.matrix)
    except (OSError, ValueError, MatrixError) as error:
        print(f"MATRIX unreadable: {error}")
        print("0 passed, 1 failed")
        return 1
    known: dict[str, str] = {}
    if args.known.exists():
        known = json.loads(args.known.read_text(encoding="utf-8"))
        if not isinstance(known, dict) or not all(isinstance(v, str) and v for v in known.values()):
            print("KNOWN file must be an object of non-empty reason strings")
            print("0 passed, 1 failed")
            return 1

    failures = validate(cases, roots)
    passed = 0
    known_hits = 0
    ids = {case["id"] for case in cases}
    for case in cases:
        if case["root"] not in roots:
            continue
        issues = check_case(generated, case)
        cid = case["id"]
        if not issues:
            passed += 1
            if cid in known:
                failures.append(f"STALE {cid}: listed in {args.known.name} but Python now agrees with the matrix")
            continue
        if cid in known:
            known_hits += 1
            if args.verbose:
                print(f"KNOWN {cid}: {'; '.join(issues)} -- {known[cid]}")
            continue
        failures.append(f"FAIL {cid}: {'; '.join(issues)}")
    for cid in sorted(set(known) - ids):
        failures.append(f"STALE {cid}: listed in {args.known.name} but not in the matrix")

    for line in failures:
        print(line)
    print(f"{known_hits} known divergences recorded in {args.known.name}")
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
