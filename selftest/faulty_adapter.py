#!/usr/bin/env python3
"""faulty_adapter.py: a protocol-v1 adapter that breaks the AHP decoding contract in exactly one way.

It is a proxy in front of a real adapter (normally the reference, `crosscheck serve-adapter`): every
request goes to that adapter, and the chosen fault alters the answers where its rule applies and
nowhere else. `crosscheck selftest` fuzzes each fault against the reference and checks that it is
found, in the right divergence class (docs/selftest.md). The faults, their expected classes and
their hand-minimal witnesses are listed in faults.json beside this file.

    faulty_adapter.py --fault unknown-enum-error -- /path/to/crosscheck serve-adapter
    faulty_adapter.py --list          # the faults table

Layer 2 (canonical validation) has faults of its own, chosen with --canonical-fault (alone or with
--fault); they alter the answers of the validate op only (CANONICAL_FAULTS below):

    faulty_adapter.py --canonical-fault parse-only -- /path/to/crosscheck serve-adapter
"""

import argparse
import decimal
import json
import hashlib
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import proxy  # noqa: E402  (beside this file)
from proxy import Num, Obj, at_pointer, dumps, loads, walk_values  # noqa: E402

FAULTS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "faults.json")


def load_faults():
    with open(FAULTS_FILE, encoding="utf-8") as f:
        return json.load(f)["faults"]


def parse_or_none(data):
    try:
        return loads(data)
    except (ValueError, UnicodeDecodeError):
        return None


def errors(answer):
    return [d for d in answer.get("diagnostics") or [] if d.get("severity") == "error"]


def warnings(answer):
    return [d for d in answer.get("diagnostics") or [] if d.get("severity") == "warning"]


def leaf_errors(answer):
    """Errors whose path is no proper prefix of another error's: the faults, not the union summaries."""
    errs = errors(answer)
    paths = [d["path"] for d in errs]
    return [d for d in errs if not any(p != d["path"] and p.startswith(d["path"] + "/") for p in paths)]


def accept(answer, diagnostics, encoded):
    answer.update(outcome="accepted", diagnostics=diagnostics, encoded=encoded, encodeError=None, message=None)
    return answer


def verdict_of(answer, second, original):
    """The answer with the verdict (outcome and diagnostics) of `second`, a decode of a changed
    payload; the encoding stays the one of the original payload, which the fault does not touch."""
    answer["outcome"] = second["outcome"]
    answer["diagnostics"] = second["diagnostics"]
    if second["outcome"] == "accepted":
        answer["encoded"] = answer["encoded"] if answer.get("encoded") is not None else original
    else:
        answer["encoded"] = None
    answer["encodeError"] = None
    return answer


class Faults:
    """One method per fault: (inner, root, data, answer) -> answer. `answer` is the reference's."""

    def __init__(self):
        self.known_names = None  # member names the schema declares (drop-unknown-members)

    # -- preserving unknown members -------------------------------------------------------------

    def on_hello(self, hello):
        bundle = hello.get("schemaBundle")
        if bundle:
            self.known_names = schema_member_names(bundle)

    def drop_unknown_members(self, inner, root, data, answer):
        if answer["outcome"] != "accepted" or answer.get("encoded") is None or self.known_names is None:
            return answer
        value = parse_or_none(answer["encoded"])
        dropped = [False]

        def strip(v):
            if isinstance(v, Obj):
                kept = Obj((k, strip(x)) for k, x in v if k in self.known_names)
                dropped[0] = dropped[0] or len(kept) != len(v)
                return kept
            if isinstance(v, list):
                return [strip(x) for x in v]
            return v

        stripped = strip(value)
        if dropped[0]:
            answer["encoded"] = dumps(stripped).encode()
        return answer

    # -- open enums, unknown tags ----------------------------------------------------------------

    def _warning_becomes_error(self, answer, code):
        if answer["outcome"] == "accepted" and any(d["code"] == code for d in warnings(answer)):
            for d in answer["diagnostics"]:
                if d["code"] == code:
                    d["severity"] = "error"
            answer.update(outcome="rejected", encoded=None, encodeError=None)
        return answer

    def unknown_enum_error(self, inner, root, data, answer):
        return self._warning_becomes_error(answer, "unknown_enum")

    def unknown_variant_error(self, inner, root, data, answer):
        return self._warning_becomes_error(answer, "unknown_variant")

    # -- forbidden properties, absent vs null --------------------------------------------------

    def forbidden_null_accepted(self, inner, root, data, answer):
        if answer["outcome"] != "rejected":
            return answer
        value = parse_or_none(data)
        changed = False
        for d in errors(answer):
            if d["code"] != "invalid_type":
                continue
            try:
                obj = at_pointer(value, d["path"])
            except KeyError:
                continue
            if isinstance(obj, Obj) and any(x is None for _, x in obj):
                obj[:] = [(k, x) for k, x in obj if x is not None]  # the forbidden check skips null
                changed = True
        if not changed:
            return answer
        second = inner.decode(root, dumps(value).encode())
        if second["outcome"] != "accepted":
            return answer
        return accept(answer, second["diagnostics"], data)

    def null_as_absent(self, inner, root, data, answer):
        value = parse_or_none(data)
        if value is None:
            return answer
        found = [False]

        def strip(v):
            if isinstance(v, Obj):
                kept = Obj((k, strip(x)) for k, x in v if x is not None)
                found[0] = found[0] or len(kept) != len(v)
                return kept
            if isinstance(v, list):
                return [strip(x) for x in v]
            return v

        stripped = strip(value)
        if not found[0]:
            return answer
        return verdict_of(answer, inner.decode(root, dumps(stripped).encode()), data)

    # -- exact union selection -------------------------------------------------------------------

    def ambiguous_union_accepted(self, inner, root, data, answer):
        leaves = leaf_errors(answer)
        if answer["outcome"] == "rejected" and leaves and all(d["code"] == "ambiguous_union" for d in leaves):
            return accept(answer, warnings(answer), data)
        return answer

    # -- integers --------------------------------------------------------------------------------

    def big_integer_accepted(self, inner, root, data, answer):
        if answer["outcome"] != "rejected":
            return answer
        value = parse_or_none(data)
        if value is None:
            return answer
        found = [False]

        def small(v):
            if isinstance(v, Num) and proxy.integer_magnitude_exceeds(v):
                found[0] = True
                return Num("-1" if v.startswith("-") else "1")
            return v

        changed = proxy.map_values(value, small)
        if not found[0]:
            return answer
        second = inner.decode(root, dumps(changed).encode())
        if second["outcome"] != "accepted":
            return answer
        return accept(answer, second["diagnostics"], data)

    def integral_decimal_rejected(self, inner, root, data, answer):
        value = parse_or_none(data)
        if value is None:
            return answer
        found = [False]

        def fraction(v):
            # The faulty integer check looks at the spelling: 1.0 and 1E2 are "not integers". Put
            # a real fraction there and let the reference say where that matters.
            if isinstance(v, Num) and any(c in v for c in ".eE") and proxy.is_integral(v):
                found[0] = True
                return Num("0.5")
            return v

        changed = proxy.map_values(value, fraction)
        if not found[0]:
            return answer
        return verdict_of(answer, inner.decode(root, dumps(changed).encode()), data)

    # -- strings and numbers in the re-encoding --------------------------------------------------

    def _reencode(self, answer, string=proxy.dump_string, number=str):
        if answer["outcome"] != "accepted" or answer.get("encoded") is None:
            return answer
        value = parse_or_none(answer["encoded"])
        if value is None:
            return answer
        answer["encoded"] = dumps(value, string=string, number=number).encode()
        return answer

    def line_separator_altered(self, inner, root, data, answer):
        encoded = answer.get("encoded") or b""
        # Cheap test first: raw U+2028/U+2029, or an escape that may be one of them.
        if b"\xe2\x80\xa8" not in encoded and b"\xe2\x80\xa9" not in encoded and b"\\u202" not in encoded.lower():
            return answer
        return self._reencode(
            answer, string=lambda s: proxy.dump_string(s.replace("\u2028", "\n").replace("\u2029", "\n"))
        )

    def opaque_number_double(self, inner, root, data, answer):
        def through_double(token):
            f = float(token)
            if f != f or f in (float("inf"), float("-inf")):
                return "null"  # what a double-based encoder writes for a value it cannot hold
            spelled = repr(f)
            return token if decimal.Decimal(spelled) == decimal.Decimal(str(token)) else spelled

        return self._reencode(answer, number=through_double)

    # -- warnings and error diagnostics ----------------------------------------------------------

    def warning_path_parent(self, inner, root, data, answer):
        for d in warnings(answer):
            if d["path"]:
                d["path"] = d["path"].rsplit("/", 1)[0]
        return answer

    def drop_warnings(self, inner, root, data, answer):
        if answer["outcome"] == "accepted":
            answer["diagnostics"] = errors(answer)
        return answer

    def wrong_error_code(self, inner, root, data, answer):
        for d in errors(answer):
            if d["code"] == "missing_required":
                d["code"] = "invalid_type"
        return answer

    # -- encode failures, crashes, hangs ---------------------------------------------------------

    def encode_fails_on_empty_object(self, inner, root, data, answer):
        if answer["outcome"] != "accepted":
            return answer
        value = parse_or_none(data)
        if any(isinstance(v, Obj) and not v for _, v in walk_values(value)):
            answer.update(encoded=None, encodeError="encode: cannot encode an empty object")
        return answer

    def crash_on_empty_array(self, inner, root, data, answer):
        value = parse_or_none(data)
        if any(isinstance(v, list) and not isinstance(v, Obj) and not v for _, v in walk_values(value)):
            sys.stderr.write("faulty: index out of range on an empty array, exiting\n")
            sys.stderr.flush()
            os._exit(1)
        return answer

    def hang_on_tab(self, inner, root, data, answer):
        value = parse_or_none(data)
        for _, v in walk_values(value):
            keys = [k for k, _ in v] if isinstance(v, Obj) else []
            if any(isinstance(s, str) and not isinstance(s, Num) and "\t" in s for s in [v] + keys):
                sys.stderr.write("faulty: looping forever on a tab\n")
                sys.stderr.flush()
                while True:
                    time.sleep(3600)
        return answer


def schema_member_names(bundle_path):
    """Every member name declared under "properties" anywhere in the schema bundle or folder."""
    documents = []
    if os.path.isdir(bundle_path):
        for folder, _, files in os.walk(bundle_path):
            for name in files:
                if name.endswith(".json"):
                    with open(os.path.join(folder, name), encoding="utf-8") as f:
                        documents.append(json.load(f))
    else:
        with open(bundle_path, encoding="utf-8") as f:
            documents.append(json.load(f))
    names = set()
    stack = documents
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                names.update(props.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return names


# Schema keywords whose values are schemas (one, a list of them, or a map of names to them): where
# an edited copy of the schemas looks for keywords, so that a property named "format" stays.
SCHEMA_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
              "unevaluatedProperties", "unevaluatedItems", "additionalItems")
SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_MAP = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")


def edit_schema(node, drop):
    """A copy of a schema without the keywords drop(keyword, value) names, at every depth."""
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if drop(k, v):
            continue
        if k in SCHEMA_ONE:
            v = edit_schema(v, drop)
        elif k in SCHEMA_LIST and isinstance(v, list):
            v = [edit_schema(x, drop) for x in v]
        elif k in SCHEMA_MAP and isinstance(v, dict):
            v = {n: edit_schema(x, drop) for n, x in v.items()}
        out[k] = v
    return out


def with_schema(argv, path):
    """The inner adapter's argv with `--schema path` instead of its own --schema."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--schema":
            skip = True
        elif not a.startswith("--schema="):
            out.append(a)
    return out + ["--schema", path]


def is_integral_spelled_as_decimal(v):
    return isinstance(v, Num) and any(c in v for c in ".eE") and proxy.is_integral(v)


class CanonicalFaults:
    """One method per layer-2 fault: (inner, document, data, answer) -> answer, `answer` being the
    reference's validate answer {id, outcome, errors: [{path, keyword}], message}.

    format-ignored and closed-objects-open are exact: the proxy writes a copy of the schema bundle
    the reference reports in its hello with the keyword removed everywhere (a schema-aware walk; in
    the temporary folder, named by its content) and asks a second reference process (the inner command with --schema on that copy, so the inner
    adapter must take --schema, as `crosscheck serve-adapter` does). For a schema folder (a manifest
    with document hashes) the proxy falls back to the keyword of the reference's errors: valid where
    every error is that keyword, which misses a keyword inside anyOf/oneOf/not (those report an
    error of their own)."""

    # fault -> (the keyword its fallback reads, which keywords the edited schemas drop)
    EDITS = {
        "format-ignored": ("format", lambda k, v: k == "format"),
        "closed-objects-open": (
            "additionalProperties",
            lambda k, v: k in ("additionalProperties", "unevaluatedProperties") and v is False,
        ),
    }

    def __init__(self, inner_argv, fault=None):
        self.inner_argv = inner_argv
        self.fault = fault
        self.bundle = None
        self.edited = {}  # fault -> Inner on the edited bundle, or None for a schema folder

    def on_hello(self, hello):
        self.bundle = hello.get("schemaBundle")
        if self.fault in self.EDITS:
            # Started now, inside the harness's hello allowance, not on the first validate request.
            self._edited_inner(self.fault, self.EDITS[self.fault][1])

    def close(self):
        for inner in self.edited.values():
            if inner is not None:
                inner.close()

    def _edited_inner(self, fault, drop):
        if fault in self.edited:
            return self.edited[fault]
        inner = None
        if isinstance(self.bundle, str) and os.path.isfile(self.bundle):
            with open(self.bundle, encoding="utf-8") as f:
                bundle = json.load(f)
            documents = [edit_schema(d, drop) for d in bundle] if isinstance(bundle, list) else edit_schema(bundle, drop)
            text = json.dumps(documents).encode()
            # Named by content and kept: the pool kills and restarts a proxy without asking, so a
            # per-process folder would be left behind each time; this is one file per fault and bundle.
            path = os.path.join(
                tempfile.gettempdir(),
                "crosscheck-faulty-%s-%s.schemas.json" % (fault, hashlib.sha256(text).hexdigest()[:16]),
            )
            if not os.path.exists(path):
                partial = "%s.%d.tmp" % (path, os.getpid())
                with open(partial, "wb") as f:
                    f.write(text)
                os.replace(partial, path)
            inner = proxy.Inner(with_schema(self.inner_argv, path))
        self.edited[fault] = inner
        return inner

    def _without_keyword(self, fault, inner, document, data, answer):
        if answer.get("outcome") not in ("valid", "invalid"):
            return answer
        keyword, drop = self.EDITS[fault]
        edited = self._edited_inner(fault, drop)
        if edited is not None:
            second = edited.validate(document, data)
            second["id"] = answer["id"]
            return second
        errs = answer.get("errors") or []
        if answer["outcome"] == "invalid" and errs and all(e.get("keyword") == keyword for e in errs):
            answer.update(outcome="valid", errors=[], message=None)
        return answer

    def parse_only(self, inner, document, data, answer):
        # The validator runs only the generated structural parse, as if the schema said nothing the
        # codec does not: valid whenever the decoder accepts the payload as the document's root.
        if answer.get("outcome") not in ("valid", "invalid") or not isinstance(document, str):
            return answer
        decoded = inner.decode(document.replace("-", "_"), data)
        if decoded.get("outcome") == "accepted":
            answer.update(outcome="valid", errors=[], message=None)
        elif decoded.get("outcome") == "rejected":
            answer.update(outcome="invalid", errors=[{"path": d["path"]} for d in errors(decoded)])
        return answer

    def format_ignored(self, inner, document, data, answer):
        # The validator drops the format keyword (date-time, uri): the reference on the schemas
        # without it.
        return self._without_keyword("format-ignored", inner, document, data, answer)

    def closed_objects_open(self, inner, document, data, answer):
        # additionalProperties: false (and unevaluatedProperties: false) is not enforced: the
        # reference on the schemas without it. A schema-valued additionalProperties stays.
        return self._without_keyword("closed-objects-open", inner, document, data, answer)

    def utf16_length(self, inner, document, data, answer):
        # minLength/maxLength count UTF-16 code units: an astral character counts 2. The reference is
        # asked again with every astral character of a string value written as two BMP characters,
        # and only that answer's minLength/maxLength errors are taken; the other errors are the
        # original input's. Partial where a length bound sits inside anyOf/oneOf/not (those report
        # their own keyword, so the original verdict stays) and in propertyNames (names are not
        # rewritten). No AHP draft document can show this fault: every length bound there is
        # minLength 1 or the 64-digit sha256 with its ASCII pattern (docs/selftest.md).
        def widen(v):
            if isinstance(v, str) and not isinstance(v, Num) and any(ord(c) > 0xFFFF for c in v):
                return "".join("\ufffd\ufffd" if ord(c) > 0xFFFF else c for c in v)
            return v

        second = self._rewritten(inner, document, data, answer, widen)
        if second is None:
            return answer
        lengths = ("minLength", "maxLength")
        errs = [e for e in answer.get("errors") or [] if e.get("keyword") not in lengths]
        errs += [e for e in second.get("errors") or [] if e.get("keyword") in lengths]
        # An invalid answer without any error (the reference always names one) stays invalid.
        invalid = bool(errs) or (answer["outcome"] == "invalid" and not answer.get("errors"))
        answer.update(outcome="invalid" if invalid else "valid", errors=errs if invalid else [])
        if not invalid:
            answer["message"] = None
        return answer

    def number_spelling_distinct(self, inner, document, data, answer):
        # Numbers are compared by their spelling: 1.0 is not 1, so 1.0 is not an integer either
        # (draft-04's rule). No AHP draft document has a numeric const or enum, and every uniqueItems
        # array there holds strings, so the one place the fault shows is type integer. Emulated by
        # the reference's verdict on the input with every integral number spelled with '.', 'e' or
        # 'E' moved by 0.5 (1.0 -> 1.5): no longer an integer, and on the same side of every
        # integer minimum (all AHP minimums are 0 or 1). Partial for a non-integer minimum, a
        # numeric enum holding the moved value, and uniqueItems over equal spellings (1.0, 1.00).
        def moved(v):
            if is_integral_spelled_as_decimal(v):
                negative, digits, exponent = proxy.split_number(v)
                if abs(exponent) + len(digits) > 2000:
                    return v  # a huge exponent: implementation-defined anyway, left alone
                with decimal.localcontext() as ctx:
                    ctx.prec = 4100
                    return Num(format(decimal.Decimal(str(v)) + decimal.Decimal("0.5"), "f"))
            return v

        second = self._rewritten(inner, document, data, answer, moved)
        if second is None:
            return answer
        second["id"] = answer["id"]
        return second

    @staticmethod
    def _rewritten(inner, document, data, answer, rewrite):
        """The reference's verdict on the input with `rewrite` applied to every value, or None when
        there is nothing to compare (no verdict, not JSON, or `rewrite` changed nothing)."""
        if answer.get("outcome") not in ("valid", "invalid"):
            return None
        value = parse_or_none(data)
        if value is None:
            return None
        changed_any = [False]

        def tracked(v):
            out = rewrite(v)
            changed_any[0] = changed_any[0] or out is not v
            return out

        changed = proxy.map_values(value, tracked)
        if not changed_any[0]:
            return None
        second = inner.validate(document, dumps(changed).encode())
        return second if second.get("outcome") in ("valid", "invalid") else None


CANONICAL_FAULTS = {
    "parse-only": "the canonical validator only runs the structural parse (valid whenever the codec accepts)",
    "format-ignored": "the canonical validator ignores the format keyword (date-time, uri)",
    "closed-objects-open": "additionalProperties: false is not enforced (closed objects take any member)",
    "utf16-length": "minLength/maxLength count UTF-16 code units (an astral character counts 2)",
    "number-spelling-distinct": "numbers compare by spelling: 1.0 is not 1, nor an integer",
}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    own, inner = proxy.split_argv(argv)
    faults = load_faults()
    # --fault takes the layer-1 faults of the table; the layer-2 ones are --canonical-fault's.
    names = {f["name"]: f["name"] for f in faults if f.get("layer", "structural") == "structural"}
    for f in faults:
        for alias in f.get("aliases", []):
            if f["name"] in names:
                names[alias] = f["name"]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fault", choices=sorted(names))
    parser.add_argument("--canonical-fault", choices=sorted(CANONICAL_FAULTS), help="a layer-2 fault of the validate op")
    parser.add_argument("--list", action="store_true", help="print the faults table (JSON) and exit")
    args = parser.parse_args(own)
    if args.list:
        json.dump(faults, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    if not (args.fault or args.canonical_fault) or not inner:
        parser.error("--fault NAME or --canonical-fault NAME, then -- INNER ADAPTER COMMAND, is required")
    impl = Faults()
    fault = names[args.fault] if args.fault else None
    transform = getattr(impl, fault.replace("-", "_")) if fault else (lambda inner, root, data, answer: answer)
    canonical = CanonicalFaults(inner, args.canonical_fault)
    validate_transform = None
    if args.canonical_fault:
        validate_transform = getattr(canonical, args.canonical_fault.replace("-", "_"))

    def on_hello(hello):
        impl.on_hello(hello)
        canonical.on_hello(hello)

    name = "faulty-" + "+".join(n for n in (fault, args.canonical_fault) if n)
    try:
        return proxy.serve(transform, name, inner, on_hello=on_hello, validate_transform=validate_transform)
    finally:
        canonical.close()


if __name__ == "__main__":
    sys.exit(main())
