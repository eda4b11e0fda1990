// any_value.hpp: small random JSON for opaque positions (`any`, unknown members) and strings.
//
// Valid instances must be free of implementation-defined input (the contract's "must agree"
// set): no duplicate keys, no lone surrogates, no NUL, numbers well inside +-2^53 and binary64.
// The adversarial spellings live in the mutator's families instead.
#pragma once

#include <cstddef>
#include <string>

#include "gen/rng.hpp"
#include "json/value.hpp"

namespace crosscheck::gen {

/// A plain string: ASCII words, non-ASCII text, quotes, backslashes, control escapes.
std::string random_string(Rng& rng);
/// An integer spelling in [lo, hi].
std::string random_integer(Rng& rng, std::int64_t lo, std::int64_t hi);
/// A number spelling: integers, decimals, exponents (exact values stay small).
std::string random_number(Rng& rng);
/// Any JSON value nesting at most `depth` containers.
json::Value random_any(Rng& rng, std::size_t depth);
/// A member name no schema declares ("x-cc-" prefix), distinct per `n`.
std::string unknown_member_name(std::uint64_t n);

}  // namespace crosscheck::gen
