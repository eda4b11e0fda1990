// support.hpp: what the crosscheck fuzz targets share: the real schema loaded once, the root an
// input's first byte selects, and the decoding contract's invariants, checked on every input.
//
// Input layout of the decoder targets (fuzz_decode, fuzz_structured): byte 0 selects the root
// (its value modulo the number of roots, in the IR's sorted order: 0 = capabilities, 20 =
// intercept_request for the pinned bundle's 31 roots); the remaining bytes are the payload.
//
// A violated invariant prints "INVARIANT VIOLATED: <what>" with the root and the payload to stderr
// and aborts, so libFuzzer (or the replay main) reports a crash and keeps the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "decoder/decoder.hpp"
#include "schema/ir.hpp"

namespace crosscheck::fuzz {

/// The real schema: schema::default_schema_path() ($CROSSCHECK_SCHEMA, then the bundle set-up
/// recorded), loaded on first use. Prints ERROR and exits 2 when there is none or it fails to load.
const schema::Ir& real_ir();

/// A decoder over real_ir(), built once.
const decoder::Decoder& real_decoder();

/// The root that `selector` picks: real_ir().roots[selector % roots.size()].
const schema::Root& root_for(std::uint8_t selector);

/// Prints the violation (root, payload, detail) and aborts.
[[noreturn]] void violated(std::string_view what, const schema::Root* root, std::string_view payload,
                           std::string_view detail);

/// Decodes `payload` as `root` and aborts unless the contract holds:
///  - decode does not throw;
///  - accepted <=> no error-severity diagnostic (a rejection carries at least one error);
///  - accepted: the encoding parses, is semantically equal to the parsed input, decodes again to
///    accepted with the same multiset of warnings (path, code), and re-encodes to itself.
void check_decode_invariants(const schema::Root& root, std::string_view payload);

/// The decoder targets' one-input entry: byte 0 selects the root, the rest is the payload.
void check_selector_input(const std::uint8_t* data, std::size_t size);

}  // namespace crosscheck::fuzz
