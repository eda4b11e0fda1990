// schema_formats.cpp: RFC 3339 date-time and RFC 3986 URI recognisers, straight from their ABNF.
#include "json/schema_formats.hpp"

namespace crosscheck::json {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }
bool alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool hex(char c) { return digit(c) || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); }

/// `n` digits at `s[at]` as a number, or -1.
int digits(std::string_view s, std::size_t at, std::size_t n) {
  if (at + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (!digit(s[i])) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

int days_in_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// --- RFC 3986 ---------------------------------------------------------------------------------

bool unreserved(char c) { return alpha(c) || digit(c) || c == '-' || c == '.' || c == '_' || c == '~'; }
bool sub_delim(char c) {
  return c == '!' || c == '$' || c == '&' || c == '\'' || c == '(' || c == ')' || c == '*' || c == '+' ||
         c == ',' || c == ';' || c == '=';
}

/// Characters of `s` all in `allowed` (plus pct-encoded triplets when `pct`).
template <class Allowed>
bool all_of(std::string_view s, Allowed allowed, bool pct = true) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (pct && s[i] == '%') {
      if (i + 2 >= s.size() || !hex(s[i + 1]) || !hex(s[i + 2])) return false;
      i += 2;
    } else if (!allowed(s[i])) {
      return false;
    }
  }
  return true;
}

bool pchar(char c) { return unreserved(c) || sub_delim(c) || c == ':' || c == '@'; }
bool path_char(char c) { return pchar(c) || c == '/'; }
bool query_char(char c) { return pchar(c) || c == '/' || c == '?'; }

bool ipv4(std::string_view s) {
  int parts = 0;
  std::size_t i = 0;
  while (true) {
    std::size_t start = i;
    while (i < s.size() && digit(s[i])) ++i;
    std::size_t n = i - start;
    if (n == 0 || n > 3 || (n > 1 && s[start] == '0')) return false;
    int v = digits(s, start, n);
    if (v > 255) return false;
    ++parts;
    if (i == s.size()) return parts == 4;
    if (s[i] != '.' || parts == 4) return false;
    ++i;
  }
}

bool ipv6(std::string_view s) {
  // Up to 8 h16 groups, at most one "::", and an IPv4 address may stand for the last two groups.
  int groups = 0;
  bool elided = false;
  std::size_t i = 0;
  if (s.substr(0, 2) == "::") {
    elided = true;
    i = 2;
    if (i == s.size()) return true;
  } else if (!s.empty() && s[0] == ':') {
    return false;
  }
  while (i < s.size()) {
    std::size_t start = i;
    while (i < s.size() && hex(s[i])) ++i;
    if (i < s.size() && s[i] == '.') {  // trailing IPv4
      if (!ipv4(s.substr(start))) return false;
      groups += 2;
      i = s.size();
      break;
    }
    std::size_t n = i - start;
    if (n == 0 || n > 4) return false;
    ++groups;
    if (i == s.size()) break;
    if (s[i] != ':') return false;
    ++i;
    if (i < s.size() && s[i] == ':') {
      if (elided) return false;
      elided = true;
      ++i;
      if (i == s.size()) break;
    } else if (i == s.size()) {
      return false;  // a single trailing ':'
    }
  }
  return elided ? groups <= 7 : groups == 8;
}

bool ip_literal(std::string_view s) {                // without the brackets
  if (!s.empty() && (s[0] == 'v' || s[0] == 'V')) {  // IPvFuture
    std::size_t dot = s.find('.');
    if (dot == std::string_view::npos || dot < 2 || dot + 1 == s.size()) return false;
    for (std::size_t i = 1; i < dot; ++i)
      if (!hex(s[i])) return false;
    return all_of(
        s.substr(dot + 1), [](char c) { return unreserved(c) || sub_delim(c) || c == ':'; }, false);
  }
  return ipv6(s);
}

bool authority(std::string_view a) {
  std::size_t at = a.rfind('@');
  if (at != std::string_view::npos) {
    if (!all_of(a.substr(0, at), [](char c) { return unreserved(c) || sub_delim(c) || c == ':'; }))
      return false;
    a = a.substr(at + 1);
  }
  std::string_view host = a;
  if (!a.empty() && a[0] == '[') {
    std::size_t close = a.find(']');
    if (close == std::string_view::npos || !ip_literal(a.substr(1, close - 1))) return false;
    std::string_view rest = a.substr(close + 1);
    if (rest.empty()) return true;
    return rest[0] == ':' && all_of(rest.substr(1), digit, false);
  }
  if (std::size_t colon = a.rfind(':'); colon != std::string_view::npos) {
    if (!all_of(a.substr(colon + 1), digit, false)) return false;
    host = a.substr(0, colon);
  }
  return all_of(host, [](char c) { return unreserved(c) || sub_delim(c); });  // reg-name covers IPv4
}

}  // namespace

bool date_time_valid(std::string_view s, DateTimeEdges* edges) {
  DateTimeEdges local;
  DateTimeEdges& e = edges ? *edges : local;
  // full-date "T" partial-time time-offset: YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)
  int year = digits(s, 0, 4), month = digits(s, 5, 2), day = digits(s, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || s[4] != '-' || s[7] != '-') return false;
  if (day > days_in_month(year, month)) return false;
  if (s.size() < 11 || (s[10] != 'T' && s[10] != 't')) return false;
  e.lower_case = s[10] == 't';
  e.year_zero = year == 0;
  int hour = digits(s, 11, 2), minute = digits(s, 14, 2), second = digits(s, 17, 2);
  if (hour < 0 || minute < 0 || second < 0 || s[13] != ':' || s[16] != ':') return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  std::size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    std::size_t start = ++i;
    while (i < s.size() && digit(s[i])) ++i;
    if (i == start) return false;
  }
  if (i >= s.size()) return false;
  int offset_minutes = 0;
  if (s[i] == 'Z' || s[i] == 'z') {
    e.lower_case = e.lower_case || s[i] == 'z';
    ++i;
  } else if (s[i] == '+' || s[i] == '-') {
    int oh = digits(s, i + 1, 2), om = digits(s, i + 4, 2);
    if (oh < 0 || om < 0 || s[i + 3] != ':' || oh > 23 || om > 59) return false;
    offset_minutes = (s[i] == '+' ? 1 : -1) * (oh * 60 + om);
    i += 6;
  } else {
    return false;
  }
  if (i != s.size()) return false;
  if (second == 60) {
    e.leap_second = true;
    // A leap second is the last second of a UTC day: 23:59:60 once the offset is taken off.
    int utc = ((hour * 60 + minute - offset_minutes) % 1440 + 1440) % 1440;
    if (utc != 23 * 60 + 59) return false;
  }
  return true;
}

bool uri_valid(std::string_view s) {
  // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
  std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0 || !alpha(s[0])) return false;
  for (std::size_t i = 1; i < colon; ++i) {
    char c = s[i];
    if (!alpha(c) && !digit(c) && c != '+' && c != '-' && c != '.') return false;
  }
  std::string_view rest = s.substr(colon + 1);
  std::string_view fragment, query;
  bool has_fragment = false, has_query = false;
  if (std::size_t hash = rest.find('#'); hash != std::string_view::npos) {
    fragment = rest.substr(hash + 1);
    rest = rest.substr(0, hash);
    has_fragment = true;
  }
  if (std::size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
    has_query = true;
  }
  if (has_fragment && !all_of(fragment, query_char)) return false;
  if (has_query && !all_of(query, query_char)) return false;
  // hier-part = "//" authority path-abempty / path-absolute / path-rootless / path-empty
  if (rest.substr(0, 2) == "//") {
    rest = rest.substr(2);
    std::size_t slash = rest.find('/');
    std::string_view auth = rest.substr(0, slash);
    std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    return authority(auth) && all_of(path, path_char);
  }
  // path-absolute must not start with "//" (handled above); path-rootless and path-empty: pchars.
  return all_of(rest, path_char);
}

}  // namespace crosscheck::json
