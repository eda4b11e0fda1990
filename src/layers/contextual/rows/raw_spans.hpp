// raw_spans.hpp: where a member or an element sits in JSON text, so that a row of a scenario file
// keeps its exact bytes (number spellings, escapes, key order, whitespace) for byte-exact replay.
//
// The text must already have parsed as JSON (json::parse): the scanner skips values without
// checking them again. Spans are byte offsets [begin, end) into the text.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace crosscheck::scenario {

struct Span {
  std::size_t begin = 0, end = 0;
  std::string_view of(std::string_view text) const { return text.substr(begin, end - begin); }
};

/// The span of the whole JSON text without surrounding whitespace.
Span document_span(std::string_view text);

/// `object` spans an object: the span of the value of its LAST member named `key` (duplicates: last
/// wins, as in json::Value::find), or nullopt.
std::optional<Span> member_span(std::string_view text, Span object, std::string_view key);

/// `array` spans an array: the span of each element, in order.
std::vector<Span> element_spans(std::string_view text, Span array);

}  // namespace crosscheck::scenario
