// parse_text.hpp: what both parse paths share (parse_paths.hpp): whitespace, the number grammar,
// the string decoder (WTF-8: lone surrogate escapes survive), and the scans that place an error.
// Inline, as the parsers' inner loops call them. Internal to json.
#pragma once

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "json/wtf8.hpp"

namespace crosscheck::json::parsing {

inline bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

inline std::string_view trim_ws(std::string_view s) {
  while (!s.empty() && is_ws(s.back())) s.remove_suffix(1);
  return s;
}

// The error-position scans below (first_invalid_utf8, end_of_first_value, Builder::fail) run over
// the whole input on every refused one, which is most of what the fuzz targets run: they skip
// 16 bytes at a time where nothing can stop them (SSE2), and stay out of line so that the fuzz
// builds' ignore list (fuzz/coverage_ignorelist.txt) keeps coverage counters out of their per-byte
// loops, which would otherwise be inlined into an instrumented caller (docs/benchmarks.md).

/// Offset of the first byte at or after `i` that is not ASCII (`s.size()` if none).
inline std::size_t skip_ascii(std::string_view s, std::size_t i) {
  if (i >= s.size()) return s.size();  // also keeps `s.size() - i` below from wrapping
#ifdef __SSE2__
  while (s.size() - i >= 16) {
    int mask = _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i)));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    i += 16;
  }
#endif
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

/// Offset of the first of the bytes `Stops` at or after `i` (`s.size()` if none).
template <char... Stops>
std::size_t skip_to(std::string_view s, std::size_t i) {
  if (i >= s.size()) return s.size();  // i may be one past a backslash that ends the input
#ifdef __SSE2__
  while (s.size() - i >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    int mask = _mm_movemask_epi8((_mm_cmpeq_epi8(x, _mm_set1_epi8(Stops)) | ...));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    i += 16;
  }
#endif
  while (i < s.size() && ((s[i] != Stops) && ...)) ++i;
  return i;
}

/// Offset of the first byte that breaks UTF-8 (RFC 3629: no overlongs, no surrogates, <= U+10FFFF).
[[gnu::noinline]] std::size_t first_invalid_utf8(std::string_view s);

/// Length of the longest prefix of `s` that is a valid JSON number, or 0.
inline std::size_t number_prefix(std::string_view s, bool& complete) {
  std::size_t i = 0, n = s.size();
  auto digit = [&](std::size_t k) { return k < n && s[k] >= '0' && s[k] <= '9'; };
  complete = false;
  if (i < n && s[i] == '-') ++i;
  if (!digit(i)) return 0;
  if (s[i] == '0') {
    ++i;
  } else {
    while (digit(i)) ++i;
  }
  if (i < n && s[i] == '.') {
    if (!digit(i + 1)) return 0;
    i += 1;
    while (digit(i)) ++i;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t k = i + 1;
    if (k < n && (s[k] == '+' || s[k] == '-')) ++k;
    if (!digit(k)) return 0;
    while (digit(k)) ++k;
    i = k;
  }
  complete = (i == n);
  return i;
}

/// Offset just past the first JSON value of `s` (assumed structurally balanced), by a light scan that
/// respects strings. Used to place "trailing content" errors, which simdjson reports without a position.
[[gnu::noinline]] std::size_t end_of_first_value(std::string_view s);

enum class StringStatus { kOk, kControl, kBadEscape, kBadHex, kUnclosed };

/// Eight bytes at `p` as one word (memcpy: no alignment needed).
inline std::uint64_t load8(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

/// True when none of the eight bytes of `w` is '"', '\\' or a control character (< 0x20): the bytes
/// a string copies verbatim. Each test is exact as a yes/no over the word (borrows only ever add
/// false positives to bytes after a true one).
inline bool plain8(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  auto has_zero = [&](std::uint64_t x) { return (x - kOnes) & ~x & kHigh; };
  std::uint64_t quote = has_zero(w ^ (kOnes * '"'));
  std::uint64_t backslash = has_zero(w ^ (kOnes * '\\'));
  std::uint64_t control = (w - kOnes * 0x20) & ~w & kHigh;
  return (quote | backslash | control) == 0;
}

/// The end of the run of verbatim string bytes that starts at `p` (at most `end`).
inline const char* plain_run(const char* p, const char* end) {
#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), below = _mm_set1_epi8(0x1F);
  while (end - p >= 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                                _mm_cmpeq_epi8(_mm_max_epu8(x, below), below));  // byte <= 0x1F
    int mask = _mm_movemask_epi8(stop);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (end - p >= 8 && plain8(load8(p))) p += 8;
  while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
  return p;
}

/// Appends to `out` the WTF-8 content of the string whose content starts at `p` (just after the
/// opening quote), up to its closing quote; `p` is left on the closing quote, or on the offending byte.
inline StringStatus decode_string(const char*& p, const char* end, std::string& out) {
  while (p < end) {
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == '"') return StringStatus::kOk;
    if (c < 0x20) return StringStatus::kControl;
    if (c != '\\') {
      const char* run = p;
      p = plain_run(p, end);
      out.append(run, static_cast<std::size_t>(p - run));
      continue;
    }
    if (p + 1 >= end) break;
    char e = p[1];
    char simple = 0;
    switch (e) {
      case '"':
        simple = '"';
        break;
      case '\\':
        simple = '\\';
        break;
      case '/':
        simple = '/';
        break;
      case 'b':
        simple = '\b';
        break;
      case 'f':
        simple = '\f';
        break;
      case 'n':
        simple = '\n';
        break;
      case 'r':
        simple = '\r';
        break;
      case 't':
        simple = '\t';
        break;
      case 'u':
        break;
      default:
        return StringStatus::kBadEscape;
    }
    if (simple != 0) {
      out.push_back(simple);
      p += 2;
      continue;
    }
    auto read_hex4 = [&](const char* q, std::uint32_t& cp) {
      if (end - q < 6) return false;
      cp = 0;
      for (int k = 2; k < 6; ++k) {
        int h = hex_value(q[k]);
        if (h < 0) return false;
        cp = cp * 16 + static_cast<std::uint32_t>(h);
      }
      return true;
    };
    std::uint32_t cp;
    if (!read_hex4(p, cp)) return StringStatus::kBadHex;
    p += 6;
    if (cp >= 0xD800 && cp <= 0xDBFF && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
      std::uint32_t low;
      if (read_hex4(p, low) && low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        p += 6;
      }
    }
    append_wtf8(out, cp);
  }
  return StringStatus::kUnclosed;
}

}  // namespace crosscheck::json::parsing
