// parse.cpp: strict RFC 8259 parsing into the lossless tree.
//
// Two paths with one meaning (detail/parse_paths.hpp): the fast path builds the tree of a valid
// text, the simdjson path finds and words the error of every refused one.
#include "json/parse.hpp"

#include <simdjson.h>

#include "json/detail/parse_paths.hpp"

namespace crosscheck::json {

std::string ParseError::message() const {
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + " (byte " +
         std::to_string(offset) + "): expected " + expected;
}

bool is_valid_utf8(std::string_view bytes) { return simdjson::validate_utf8(bytes.data(), bytes.size()); }

Result<Value, ParseError> parse(std::string_view bytes, const ParseLimits& limits) {
  return parse(bytes, limits, nullptr);
}

Result<Value, ParseError> parse(std::string_view bytes, const ParseLimits& limits, std::string* compact) {
  if (compact) compact->clear();
  if (auto error = parsing::precheck(bytes, limits)) return *std::move(error);
  Value root;
  if (parsing::parse_fast(bytes, limits.max_depth, root, compact)) return root;
  // The fast path gives up on anything it does not accept, so this input is almost surely refused:
  // find the error without building a tree, and build one only if there is no error after all.
  Result<Value, ParseError> located = parsing::parse_prechecked(bytes, limits, false);
  if (!located) return located;
  return parsing::parse_prechecked(bytes, limits);
}

namespace detail {

Result<Value, ParseError> parse_with_simdjson(std::string_view bytes, const ParseLimits& limits) {
  if (auto error = parsing::precheck(bytes, limits)) return *std::move(error);
  return parsing::parse_prechecked(bytes, limits);
}

}  // namespace detail

}  // namespace crosscheck::json
