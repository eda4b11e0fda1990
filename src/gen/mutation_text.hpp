// mutation_text.hpp: text-level helpers of the mutator, where the lossless tree cannot say it:
// number respelling, raw spellings of one string (escapes, invalid UTF-8), whitespace between
// tokens, and plain byte edits.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "gen/rng.hpp"
#include "json/value.hpp"

namespace crosscheck::gen {

/// Another spelling of the same exact number (5 -> 5.0, 5E0, 50E-1, 5.0e+0); nullopt if none
/// differs. `text` must be a valid JSON number token.
std::optional<std::string> respell_number(std::string_view text, Rng& rng);

/// A number spelling that a binary64 double does not carry through a round trip: most have more
/// significant digits than a double keeps (0.10000000000000001, 9007199254740993.5, long random
/// mantissas; no implementation-defined trait), a quarter are the edges the contract leaves to each
/// implementation (integers beyond 2^53, 1E400, 5e-400, 4.9E-324, -0, the ends of the double range).
std::string beyond_binary64_number(Rng& rng);

/// A string value that serialises to a token found nowhere else in a document (see splice_string).
json::Value string_marker(std::uint64_t n);
/// Serialises `document` (compact) with the marker string replaced by `raw_token`, the exact bytes
/// to put there (quotes included): how a string gets a spelling the tree cannot hold.
std::string splice_string(const json::Value& document, const json::Value& marker, std::string_view raw_token);
/// The JSON escape of `wtf8` without the surrounding quotes.
std::string escape_inner(std::string_view wtf8);

/// Byte offsets in compact JSON `text` between two tokens (outside strings), for whitespace.
std::vector<std::size_t> token_boundaries(std::string_view text);

}  // namespace crosscheck::gen
