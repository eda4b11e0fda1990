// equal.hpp: semantic JSON equality, the round-trip promise of the AHP codecs.
//
// Objects compare as maps (duplicate keys: last wins), arrays in order, strings by code points,
// numbers as exact decimals: 1 == 1.0 == 1E0 == 10E-1, -0 == 0, and 9007199254740993 !=
// 9007199254740992. Nothing goes through a double.
#pragma once

#include <string>
#include <string_view>

#include "json/value.hpp"

namespace crosscheck::json {

bool semantically_equal(const Value& a, const Value& b);

/// Exact comparison of two valid JSON number spellings: <0, 0, >0. Exponents of any length.
int compare_numbers(std::string_view a, std::string_view b);

/// True when the number's value is an integer (1.0, 1E2 and 10E-1 are; 1.5 and 1E-400 are not).
bool is_integral(std::string_view number);

/// True when the number is integral and |n| <= 9007199254740991 (2^53 - 1).
bool is_safe_integer(std::string_view number);

/// Canonical spelling of a number's exact value ("1.0" -> "1", "10E-1" -> "1", "-0" -> "0",
/// "1.50E3" -> "1500", "1E400" -> "1E400"): equal values give equal strings. Used for hashing.
std::string canonical_number(std::string_view number);

}  // namespace crosscheck::json
