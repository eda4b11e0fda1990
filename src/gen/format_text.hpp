// format_text.hpp: random strings for the canonical generator (canonical_generator.cpp): the formats
// it draws (RFC 3339 date-times, absolute URIs) in the forms no validator is known to answer
// differently on, and free text. Internal to src/gen.
#pragma once

#include <cstddef>
#include <string>

#include "gen/rng.hpp"

namespace crosscheck::gen {

/// `n` lower-case letters and digits.
std::string letters(Rng& rng, std::size_t n);
/// An RFC 3339 date-time no engine is known to answer differently on: upper case, no leap second,
/// a year from 1970, offsets other than -00:00.
std::string random_date_time(Rng& rng);
/// An absolute RFC 3986 URI.
std::string random_uri(Rng& rng);
/// What follows a pattern-drawn URI prefix so that the whole is still a URI.
std::string uri_suffix(const std::string& prefix, Rng& rng);
/// Free text of `n` code points: mostly ASCII, sometimes a BMP letter, an astral character only
/// where no pattern or maxLength could make its UTF-16 length matter.
std::string random_text(Rng& rng, std::size_t n, bool astral_ok);

}  // namespace crosscheck::gen
