// value_diff.hpp: where two JSON values differ, under semantic equality (json/equal.hpp: objects
// as maps, arrays in order, exact decimals). Used to say which part of a received request differs
// from its scenario's, and which result keys two clients disagree on.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "json/value.hpp"

namespace crosscheck::scenario {

/// JSON Pointers of the places where `a` and `b` differ, deepest first-differing place per branch,
/// in `a`'s member order then `b`'s extra members; at most `limit` of them. An array of another
/// length differs as a whole. Empty when semantically equal.
std::vector<std::string> differing_pointers(const json::Value& a, const json::Value& b,
                                            std::size_t limit = 32);

}  // namespace crosscheck::scenario
