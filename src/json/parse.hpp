// parse.hpp: strict RFC 8259 parsing of raw bytes into the lossless tree.
//
// The bytes must be UTF-8 (no BOM), one JSON text, optional surrounding whitespace (space, tab, LF,
// CR only). Escapes are checked; a lone surrogate escape is kept (WTF-8); raw control characters,
// invalid UTF-8, leading zeros, "1.", "+1", NaN are errors. Limits bound depth and size so that no
// input can make the parser recurse or allocate without bound.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::json {

struct ParseLimits {
  std::size_t max_depth = 1000;                   ///< nesting of arrays and objects
  std::size_t max_bytes = std::size_t{64} << 20;  ///< input size
};

struct ParseError {
  std::size_t offset = 0;  ///< byte offset of the offending byte (0-based)
  std::size_t line = 1;    ///< 1-based
  std::size_t column = 1;  ///< 1-based, counted in bytes
  std::string expected;    ///< what was expected there, e.g. "',' or '}'"
  /// "line L, column C (byte O): expected X"
  std::string message() const;
};

/// True when `bytes` is well-formed UTF-8 (RFC 3629: no surrogates, no overlongs).
bool is_valid_utf8(std::string_view bytes);

/// A hand-written strict parser builds the tree of every valid text; any input it refuses goes to the
/// simdjson-driven parser below, which alone words the errors (so messages and positions are its own).
Result<Value, ParseError> parse(std::string_view bytes, const ParseLimits& limits = {});

/// parse(), and when `compact` is given: set to the text write(value, options) gives with options
/// compact and collapse_duplicates, when that text is the input less its whitespace outside strings
/// (no duplicate keys, no escape the writer spells otherwise, which is what most messages are), so that a
/// decoder need not write the tree again; otherwise, or when the input is refused, left empty.
Result<Value, ParseError> parse(std::string_view bytes, const ParseLimits& limits, std::string* compact);

namespace detail {
/// The simdjson-driven parser alone (the error path of parse()), for tests that check that both
/// paths build the same tree and refuse the same inputs.
Result<Value, ParseError> parse_with_simdjson(std::string_view bytes, const ParseLimits& limits = {});
}  // namespace detail

}  // namespace crosscheck::json
