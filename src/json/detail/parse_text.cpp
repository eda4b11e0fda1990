// parse_text.cpp: the scans that place an error (parse_text.hpp), out of line for the fuzz builds'
// ignore list (fuzz/coverage_ignorelist.txt).
#include "json/detail/parse_text.hpp"

namespace crosscheck::json::parsing {

[[gnu::noinline]] std::size_t first_invalid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t n = s.size(), i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      i = skip_ascii(s, i);
      continue;
    }
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
      len = 2;
    else if (c == 0xE0) {
      len = 3;
      lo = 0xA0;
    } else if (c == 0xED) {
      len = 3;
      hi = 0x9F;
    } else if (c >= 0xE1 && c <= 0xEF)
      len = 3;
    else if (c == 0xF0) {
      len = 4;
      lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3)
      len = 4;
    else if (c == 0xF4) {
      len = 4;
      hi = 0x8F;
    } else
      return i;
    if (i + len > n) return i;
    if (p[i + 1] < lo || p[i + 1] > hi) return i;
    for (std::size_t k = 2; k < len; ++k) {
      if (p[i + k] < 0x80 || p[i + k] > 0xBF) return i;
    }
    i += len;
  }
  return n;
}

[[gnu::noinline]] std::size_t end_of_first_value(std::string_view s) {
  std::size_t i = s.find_first_not_of(" \t\n\r");
  if (i == std::string_view::npos) return s.size();
  auto skip_string = [&](std::size_t k) {  // k at the opening quote; returns past the closing one
    for (k = skip_to<'"', '\\'>(s, k + 1); k < s.size(); k = skip_to<'"', '\\'>(s, k + 1)) {
      if (s[k] == '\\')
        ++k;
      else
        return k + 1;
    }
    return s.size();
  };
  if (s[i] == '"') return skip_string(i);
  if (s[i] != '[' && s[i] != '{') {
    while (i < s.size() && std::string_view(" \t\n\r,:[]{}\"").find(s[i]) == std::string_view::npos) ++i;
    return i;
  }
  std::size_t depth = 0;
  for (i = skip_to<'"', '[', ']', '{', '}'>(s, i); i < s.size(); i = skip_to<'"', '[', ']', '{', '}'>(s, i)) {
    char c = s[i];
    if (c == '"') {
      i = skip_string(i);
      continue;
    }
    if (c == '[' || c == '{') ++depth;
    if ((c == ']' || c == '}') && --depth == 0) return i + 1;
    ++i;
  }
  return s.size();
}

}  // namespace crosscheck::json::parsing
