// schema_formats.hpp: the two `format` values the AHP schemas assert, checked exactly by their RFCs.
//
//   date-time: RFC 3339 section 5.6 `date-time`. "T" and "Z" in either case (ABNF literals are
//              case-insensitive, RFC 5234 2.3), day checked against the month and leap years, second
//              60 only where the time, moved to UTC by its offset, is 23:59:60 (the leap-second table
//              itself is not consulted), any number of fraction digits, offsets -23:59..+23:59
//              including -00:00, year 0000 allowed. A space instead of "T" is not the grammar.
//   uri:       RFC 3986 section 3 `URI` (scheme ":" hier-part ["?" query] ["#" fragment]): absolute,
//              ASCII only, percent-encodings of two hex digits, IPv6 and IPvFuture literals checked.
//              A relative reference, an empty string, a space or a non-ASCII character is not a URI.
#pragma once

#include <cstdint>
#include <string_view>

namespace crosscheck::json {

/// Facts about a date-time that SDK engines are known to answer differently (their validity by
/// RFC 3339 is what date_time_valid returns).
struct DateTimeEdges {
  bool leap_second = false;  ///< second 60
  bool lower_case = false;   ///< "t" or "z"
  bool year_zero = false;    ///< year 0000
};

bool date_time_valid(std::string_view text, DateTimeEdges* edges = nullptr);
bool uri_valid(std::string_view text);

}  // namespace crosscheck::json
