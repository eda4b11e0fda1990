#!/usr/bin/env python3
"""faulty_proxy.py: the seeded-fault adapter of the self-test, under the name the fuzz tests use.

A thin wrapper: the faults live in selftest/faulty_adapter.py (the table in selftest/faults.json).
It runs in this process, so the command line still names this file.

    faulty_proxy.py --fault unknown-enum-error -- /path/to/crosscheck serve-adapter

Faults used by the tests: unknown-enum-error (an unknown_enum warning becomes an error and the
payload is rejected), drop-warnings, lose-unknown-member (= drop-unknown-members); any fault of the
table works.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "selftest"))
import faulty_adapter  # noqa: E402

if __name__ == "__main__":
    sys.exit(faulty_adapter.main())
