// parse_paths.hpp: the two paths of parse() (parse.cpp). The fast path (parse_fast.cpp) is a
// hand-written recursive descent that builds the tree of a valid text in one pass and gives up on
// anything else (no error wording): on 1-4 KB messages it is several times faster than the simdjson
// path, whose On-Demand kernel is the portable one unless the whole build targets a newer CPU. The
// simdjson path (parse_simdjson.cpp) handles every refused input: On-Demand drives the structure,
// keeps members in order with duplicates and gives each scalar's raw text; it adds the number grammar
// on the raw token, WTF-8 string decoding, and a byte offset, line and column for every error. Both
// share parse_text.hpp, and the unit tests compare their trees, so errors and trees stay the same.
// Internal to json.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "json/parse.hpp"
#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::json::parsing {

/// The fast path: the tree of a valid text into `out`, or false for anything else. With `compact`
/// (empty), also sets it to the text write(out, {.collapse_duplicates = true}) would give when that
/// is the input less its whitespace, else leaves it empty (see parse.hpp).
bool parse_fast(std::string_view bytes, std::size_t max_depth, Value& out, std::string* compact);

/// The checks before any parsing: size, byte order mark, UTF-8.
std::optional<ParseError> precheck(std::string_view bytes, const ParseLimits& limits);

/// The simdjson path on bytes that passed precheck(). With `build_values` false the tree is not
/// built: the result is the error, or a null value when there is none.
Result<Value, ParseError> parse_prechecked(std::string_view bytes, const ParseLimits& limits,
                                           bool build_values = true);

}  // namespace crosscheck::json::parsing
