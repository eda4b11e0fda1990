// reference_adapter.hpp: the C++ reference (the structural decoder and the canonical validator)
// behind adapter protocol v1 (docs/protocol.md), on stdin and stdout: `crosscheck serve-adapter`, the
// `cpp` entry of adapters/default.json, and how the adapter pool is tested end to end against a real
// implementation.
//
// Per-request cost (docs/benchmarks.md, bench_adapters): the decode itself is a few microseconds, so
// a JSON tree of each request and of each answer would cost as much again; serve.cpp says how
// requests are read and answers written without them.
#pragma once

#include "schema/ir.hpp"

namespace crosscheck::reference_adapter {

/// Answers requests on stdin until a shutdown request or EOF (0), or a hello of another protocol
/// version (2, after answering it). `echo_input` (serve-adapter --echo-input) skips the decoder: every
/// decode is answered "accepted" with its input as the encoding, so that bench_adapters can measure
/// what the protocol alone costs both processes (bench/README.md, "the protocol's floor"). Its
/// answers mean nothing; its hello names it "cpp-echo", and no configuration the project ships
/// selects it.
int serve(const schema::Ir& ir, bool echo_input);

}  // namespace crosscheck::reference_adapter
