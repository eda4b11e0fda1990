// parse.cpp: strict RFC 8259 parsing into the lossless tree.
//
// Two paths with one meaning. The fast path (FastParser) is a hand-written recursive descent that
// builds the tree of a valid text in one pass and gives up on anything else (no error wording): on 1-4 KB
// messages it is several times faster than the simdjson path, whose On-Demand kernel is the portable one
// unless the whole build targets a newer CPU. The simdjson path handles every refused input: On-Demand drives
// the structure, keeps members in order with duplicates and gives each scalar's raw text; this file adds the
// number grammar on the raw token, WTF-8 string decoding (lone surrogate escapes survive), and a byte offset,
// line and column for every error. Both share the string decoder and the number grammar, and the unit tests
// compare their trees, so errors and trees stay the same.
#include "json/parse.hpp"

#include <simdjson.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <vector>

#include "json/wtf8.hpp"

namespace crosscheck::json {
namespace {

namespace od = simdjson::ondemand;

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim_ws(std::string_view s) {
  while (!s.empty() && is_ws(s.back())) s.remove_suffix(1);
  return s;
}

// The error-position scans below (first_invalid_utf8, end_of_first_value, Builder::fail) run over
// the whole input on every refused one, which is most of what the fuzz targets run: they skip
// 16 bytes at a time where nothing can stop them (SSE2), and stay out of line so that the fuzz
// builds' ignore list (fuzz/coverage_ignorelist.txt) keeps coverage counters out of their per-byte
// loops, which would otherwise be inlined into an instrumented caller (docs/benchmarks.md).

/// Offset of the first byte at or after `i` that is not ASCII (`s.size()` if none).
std::size_t skip_ascii(std::string_view s, std::size_t i) {
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

/// Length of the longest prefix of `s` that is a valid JSON number, or 0.
std::size_t number_prefix(std::string_view s, bool& complete) {
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

enum class StringStatus { kOk, kControl, kBadEscape, kBadHex, kUnclosed };

/// Eight bytes at `p` as one word (memcpy: no alignment needed).
std::uint64_t load8(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

/// True when none of the eight bytes of `w` is '"', '\\' or a control character (< 0x20): the bytes
/// a string copies verbatim. Each test is exact as a yes/no over the word (borrows only ever add
/// false positives to bytes after a true one).
bool plain8(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  auto has_zero = [&](std::uint64_t x) { return (x - kOnes) & ~x & kHigh; };
  std::uint64_t quote = has_zero(w ^ (kOnes * '"'));
  std::uint64_t backslash = has_zero(w ^ (kOnes * '\\'));
  std::uint64_t control = (w - kOnes * 0x20) & ~w & kHigh;
  return (quote | backslash | control) == 0;
}

/// The end of the run of verbatim string bytes that starts at `p` (at most `end`).
const char* plain_run(const char* p, const char* end) {
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
StringStatus decode_string(const char*& p, const char* end, std::string& out) {
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

/// The fast path: a strict RFC 8259 recursive-descent parser straight into the tree, with no error
/// reporting. It accepts only what the simdjson path accepts, building the same tree (same string
/// decoding, same number grammar, same depth limit); on anything else it gives up and parse() runs
/// the simdjson path, which finds the error and its position.
class FastParser {
 public:
  /// With `compact` (empty), also sets it to the text write(out, {.collapse_duplicates = true}) would
  /// give when that is the input less its whitespace, else leaves it empty (see parse.hpp).
  bool parse(std::string_view bytes, std::size_t max_depth, Value& out, std::string* compact = nullptr) {
    p_ = bytes.data();
    end_ = bytes.data() + bytes.size();
    max_depth_ = max_depth;
    compact_ = compact != nullptr;
    skip_ws();
    if (!value(out, 0)) return false;
    skip_ws();
    if (p_ != end_) return false;
    if (!compact || !canonical_) return true;  // parse() left `compact` empty
    if (!spaced_) {
      compact->assign(bytes);  // already compact: what the generators send
      return true;
    }
    // simdjson's minifier drops the whitespace outside strings 64 bytes a step (an append per
    // whitespace run while parsing cost as much as the writer); it needs room for its padding.
    std::size_t size = 0;
    compact->resize(bytes.size() + simdjson::SIMDJSON_PADDING);
    if (simdjson::minify(bytes.data(), bytes.size(), compact->data(), size) != simdjson::SUCCESS) size = 0;
    compact->resize(size);
    return true;
  }

 private:
  void skip_ws() {
    // Most tokens follow one space or none; pretty-printed input has long runs of indentation.
    if (p_<end_&& static_cast<unsigned char>(*p_)> ' ') return;
    if (p_ < end_) spaced_ = true;  // whitespace (or a control character, which fails the parse)
#ifdef __SSE2__
    const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'), lf = _mm_set1_epi8('\n'),
                  cr = _mm_set1_epi8('\r');
    while (end_ - p_ >= 16) {
      __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p_));
      __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, space), _mm_cmpeq_epi8(x, tab)),
                                _mm_or_si128(_mm_cmpeq_epi8(x, lf), _mm_cmpeq_epi8(x, cr)));
      unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(ws)) & 0xFFFFu;
      if (other != 0) {
        p_ += __builtin_ctz(other);
        return;
      }
      p_ += 16;
    }
#endif
    while (p_ < end_ && is_ws(*p_)) ++p_;
  }

  /// After a scalar: whitespace, ',', ']', '}' or the end (as simdjson ends a scalar token).
  bool at_delimiter() const {
    if (p_ == end_) return true;
    char c = *p_;
    return is_ws(c) || c == ',' || c == ']' || c == '}';
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0)
      return false;
    p_ += word.size();
    return at_delimiter();
  }

  bool digit() const { return p_ < end_ && *p_ >= '0' && *p_ <= '9'; }

  bool number(Value& out) {
    const char* start = p_;
    if (*p_ == '-') ++p_;
    if (!digit()) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (digit()) ++p_;
    }
    if (p_ < end_ && *p_ == '.') {
      ++p_;
      if (!digit()) return false;
      while (digit()) ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!digit()) return false;
      while (digit()) ++p_;
    }
    if (!at_delimiter()) return false;
    out.become_text(Kind::kNumber).assign(start, static_cast<std::size_t>(p_ - start));
    return true;
  }

  /// `p_` just after the opening quote; leaves it past the closing one.
  bool string(std::string& out) {
    const char* run_end = plain_run(p_, end_);
    if (run_end < end_ && *run_end == '"') {  // no escapes: one copy
      out.assign(p_, static_cast<std::size_t>(run_end - p_));
      p_ = run_end + 1;
      return true;
    }
    out.assign(p_, static_cast<std::size_t>(run_end - p_));
    const char* escaped = run_end;
    p_ = run_end;
    if (decode_string(p_, end_, out) != StringStatus::kOk) return false;
    if (compact_ && canonical_) canonical_ = writer_spelling(escaped, p_);
    ++p_;
    return true;
  }

  /// Whether the writer spells the string content [p, end) (valid, escapes included) as it is: it
  /// escapes the quote, the backslash and the controls that have a one-letter escape the same way;
  /// the solidus escape and the four-hex-digit ones it spells otherwise, or may.
  static bool writer_spelling(const char* p, const char* end) {
    for (p = std::find(p, end, '\\'); p != end; p = std::find(p + 2, end, '\\')) {
      switch (p[1]) {
        case '"':
        case '\\':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
          continue;
        default:
          return false;
      }
    }
    return true;
  }

  bool value(Value& out, std::size_t depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return object(out, depth);
      case '[':
        return array(out, depth);
      case '"':
        ++p_;
        return string(out.become_text(Kind::kString));
      case 't':
        if (!literal("true")) return false;
        out = Value::boolean(true);
        return true;
      case 'f':
        if (!literal("false")) return false;
        out = Value::boolean(false);
        return true;
      case 'n':
        if (!literal("null")) return false;
        out = Value::null();
        return true;
      default:
        return number(out);
    }
  }

  // Children are built in place in their parent's vector: the recursion below fills the child's own
  // vectors, never this one, so the reference to the element stays valid.
  bool array(Value& out, std::size_t depth) {
    if (depth >= max_depth_) return false;
    ++p_;
    skip_ws();
    out = Value::array();
    if (p_ < end_ && *p_ == ']') {
      ++p_;
      return true;
    }
    std::vector<Value>& items = out.items();
    items.reserve(4);
    for (;;) {
      if (!value(items.emplace_back(), depth + 1)) return false;
      skip_ws();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        skip_ws();
        continue;
      }
      if (*p_ != ']') return false;
      ++p_;
      return true;
    }
  }

  bool object(Value& out, std::size_t depth) {
    if (depth >= max_depth_) return false;
    ++p_;
    skip_ws();
    out = Value::object();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
      return true;
    }
    std::vector<Member>& members = out.members();
    members.reserve(4);
    for (;;) {
      if (p_ == end_ || *p_ != '"') return false;
      ++p_;
      Member& member = members.emplace_back();
      if (!string(member.key)) return false;
      skip_ws();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      skip_ws();
      if (!value(member.value, depth + 1)) return false;
      skip_ws();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        skip_ws();
        continue;
      }
      if (*p_ != '}') return false;
      ++p_;
      // The writer collapses duplicate keys: the compact text would not be the input's.
      if (compact_ && canonical_ && has_duplicate_keys(members)) canonical_ = false;
      return true;
    }
  }

  const char* p_ = nullptr;
  const char* end_ = nullptr;
  std::size_t max_depth_ = 0;
  bool compact_ = false;   // the caller wants the compact text (see parse())
  bool canonical_ = true;  // false: the compact text is not the input less its whitespace
  bool spaced_ = false;    // there is whitespace outside strings
};

// value::raw_json_token() cannot fail; document::raw_json_token() can.
simdjson::error_code raw_token(od::value& v, std::string_view& token) {
  token = v.raw_json_token();
  return simdjson::SUCCESS;
}
simdjson::error_code raw_token(od::document& d, std::string_view& token) {
  return d.raw_json_token().get(token);
}

class Builder {
 public:
  /// `build_values` false: locate the error only. Every check runs as when building, but no value
  /// is made: parse() knows the input is refused when the fast path gave up (docs/benchmarks.md).
  Builder(std::string_view input, const ParseLimits& limits, bool build_values = true)
      : input_(input), limits_(limits), build_values_(build_values) {}

  std::optional<ParseError> error;

  void fail(std::size_t offset, std::string expected) {
    if (error) return;
    ParseError e;
    e.offset = offset > input_.size() ? input_.size() : offset;
    // Line: 1 + the newlines before the offset; column: 1 + the bytes since the last of them.
    const char* begin = input_.data();
    const char* end = begin + e.offset;
    const char* line_start = begin;
    while (line_start < end) {
      const void* nl = std::memchr(line_start, '\n', static_cast<std::size_t>(end - line_start));
      if (!nl) break;
      ++e.line;
      line_start = static_cast<const char*>(nl) + 1;
    }
    e.column = 1 + static_cast<std::size_t>(end - line_start);
    e.expected = std::move(expected);
    error = std::move(e);
  }

  std::size_t offset_of(const char* p) const {
    if (p < input_.data()) return 0;
    return static_cast<std::size_t>(p - input_.data());
  }

  template <class V>
  void fail_simd(V& v, simdjson::error_code code, std::string expected) {
    if (code == simdjson::UTF8_ERROR) {
      fail(first_invalid_utf8(input_), "UTF-8 text");
      return;
    }
    // simdjson reports content after the root value, from wherever it notices it, without a position.
    if (code != simdjson::DEPTH_ERROR && fail_trailing()) return;
    // An unclosed array or object is noticed up front (stage 1), without a position: it is at the end.
    if (code == simdjson::INCOMPLETE_ARRAY_OR_OBJECT) {
      fail(input_.size(), "more input: an array or object is not closed");
      return;
    }
    const char* where = nullptr;
    std::size_t offset = input_.size();
    if (v.current_location().get(where) == simdjson::SUCCESS) offset = offset_of(where);
    fail(offset, std::move(expected));
  }

  /// Fails with "the end of the input" at the first non-whitespace byte after the root value, if any.
  bool fail_trailing() {
    std::size_t end = end_of_first_value(input_);
    std::size_t extra = input_.find_first_not_of(" \t\n\r", end);
    if (extra == std::string_view::npos) return false;
    fail(extra, "the end of the input");
    return true;
  }

  // Decodes the string whose content starts at `p` (just after the opening quote) into WTF-8.
  bool read_string(const char* p, std::string& out) {
    out.clear();
    switch (decode_string(p, input_.data() + input_.size(), out)) {
      case StringStatus::kOk:
        return true;
      case StringStatus::kControl:
        fail(offset_of(p), "a string character (control characters must be escaped)");
        return false;
      case StringStatus::kBadEscape:
        fail(offset_of(p), "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)");
        return false;
      case StringStatus::kBadHex:
        fail(offset_of(p), "four hex digits after \\u");
        return false;
      case StringStatus::kUnclosed:
        break;
    }
    fail(input_.size(), "a closing quote");
    return false;
  }

  template <class V>
  bool build(V& v, std::size_t depth, Value& out) {
    od::json_type type;
    if (auto code = v.type().get(type)) {
      fail_simd(v, code, "a JSON value");
      return false;
    }
    switch (type) {
      case od::json_type::array:
        return build_array(v, depth, out);
      case od::json_type::object:
        return build_object(v, depth, out);
      case od::json_type::string: {
        od::raw_json_string raw;
        if (auto code = v.get_raw_json_string().get(raw)) {
          fail_simd(v, code, "a string");
          return false;
        }
        if (!read_string(raw.raw(), scratch_)) return false;
        if (build_values_) out = Value::string(scratch_);
        return true;
      }
      case od::json_type::number:
      case od::json_type::boolean:
      case od::json_type::null: {
        std::string_view token;
        if (auto code = raw_token(v, token)) {
          fail_simd(v, code, "a JSON value");
          return false;
        }
        token = trim_ws(token);
        std::size_t at = offset_of(token.data());
        if (type == od::json_type::number) {
          bool complete;
          std::size_t good = number_prefix(token, complete);
          if (!complete) {
            fail(at + good, good == 0 ? "a number" : "the end of the number");
            return false;
          }
          if (build_values_) out = Value::number(std::string(token));
        } else if (token == "true" || token == "false") {
          if (build_values_) out = Value::boolean(token == "true");
        } else if (token == "null") {
          if (build_values_) out = Value::null();
        } else {
          fail(at, "true, false or null");
          return false;
        }
        return true;
      }
    }
    fail_simd(v, simdjson::TAPE_ERROR, "a JSON value");
    return false;
  }

  template <class V>
  bool build_array(V& v, std::size_t depth, Value& out) {
    if (depth >= limits_.max_depth) {
      fail_simd(v, simdjson::DEPTH_ERROR, "nesting at most " + std::to_string(limits_.max_depth) + " deep");
      return false;
    }
    od::array array;
    if (auto code = v.get_array().get(array)) {
      fail_simd(v, code, "an array");
      return false;
    }
    if (build_values_) out = Value::array();
    for (auto element : array) {
      od::value child;
      if (auto code = element.get(child)) {
        fail_simd(v, code, "a value, ',' or ']'");
        return false;
      }
      Value ignored;  // stays null when not building
      if (!build(child, depth + 1, build_values_ ? out.items().emplace_back() : ignored)) return false;
    }
    return true;
  }

  template <class V>
  bool build_object(V& v, std::size_t depth, Value& out) {
    if (depth >= limits_.max_depth) {
      fail_simd(v, simdjson::DEPTH_ERROR, "nesting at most " + std::to_string(limits_.max_depth) + " deep");
      return false;
    }
    od::object object;
    if (auto code = v.get_object().get(object)) {
      fail_simd(v, code, "an object");
      return false;
    }
    if (build_values_) out = Value::object();
    for (auto field_result : object) {
      od::field field;
      if (auto code = std::move(field_result).get(field)) {
        fail_simd(v, code, "a member name, ',' or '}'");
        return false;
      }
      if (!read_string(field.key().raw(), scratch_)) return false;
      std::string key = build_values_ ? scratch_ : std::string();
      od::value child = field.value();
      Value member;
      if (!build(child, depth + 1, member)) return false;
      if (build_values_) out.add(std::move(key), std::move(member));
    }
    return true;
  }

 private:
  std::string_view input_;
  const ParseLimits& limits_;
  bool build_values_;
  std::string scratch_;  // each string's decoding, reused
};

}  // namespace

std::string ParseError::message() const {
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + " (byte " +
         std::to_string(offset) + "): expected " + expected;
}

bool is_valid_utf8(std::string_view bytes) { return simdjson::validate_utf8(bytes.data(), bytes.size()); }

namespace {

/// The checks before any parsing: size, byte order mark, UTF-8.
std::optional<ParseError> precheck(std::string_view bytes, const ParseLimits& limits) {
  Builder builder(bytes, limits);
  if (bytes.size() > limits.max_bytes) {
    builder.fail(limits.max_bytes, "at most " + std::to_string(limits.max_bytes) + " bytes");
  } else if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF") {
    builder.fail(0, "a JSON value (a byte order mark is not allowed)");
  } else if (!simdjson::validate_utf8(bytes.data(), bytes.size())) {
    builder.fail(first_invalid_utf8(bytes), "UTF-8 text");
  }
  return std::move(builder.error);
}

/// The simdjson path on bytes that passed precheck(). With `build_values` false the tree is not
/// built: the result is the error, or a null value when there is none.
Result<Value, ParseError> parse_prechecked(std::string_view bytes, const ParseLimits& limits,
                                           bool build_values = true) {
  Builder builder(bytes, limits);
  thread_local od::parser parser;
  // simdjson checks nesting too (stage 1); give it room so that our limit, with its message, applies.
  if (parser.max_depth() <= limits.max_depth + 1) {
    if (parser.allocate(std::max<std::size_t>(parser.capacity(), 4096), limits.max_depth + 2) !=
        simdjson::SUCCESS) {
      builder.fail(0, "nesting at most " + std::to_string(limits.max_depth) + " deep (out of memory)");
      return *builder.error;
    }
  }
  simdjson::padded_string padded(bytes);
  od::document doc;
  if (auto code = parser.iterate(padded).get(doc)) {
    if (code == simdjson::DEPTH_ERROR) {
      builder.fail(0, "nesting at most " + std::to_string(limits.max_depth) + " deep");
    } else {
      builder.fail(code == simdjson::EMPTY ? bytes.size() : 0, "a JSON value");
    }
    return *builder.error;
  }
  // Re-point the builder at the padded copy: simdjson hands out pointers into it.
  Builder padded_builder(std::string_view(padded.data(), bytes.size()), limits, build_values);
  Value root;
  if (!padded_builder.build(doc, 0, root)) return *padded_builder.error;
  // Anything but whitespace after the root value is an error.
  if (padded_builder.fail_trailing()) return *padded_builder.error;
  return root;
}

}  // namespace

Result<Value, ParseError> parse(std::string_view bytes, const ParseLimits& limits) {
  return parse(bytes, limits, nullptr);
}

Result<Value, ParseError> parse(std::string_view bytes, const ParseLimits& limits, std::string* compact) {
  if (compact) compact->clear();
  if (auto error = precheck(bytes, limits)) return *std::move(error);
  FastParser fast;
  Value root;
  if (fast.parse(bytes, limits.max_depth, root, compact)) return root;
  // The fast path gives up on anything it does not accept, so this input is almost surely refused:
  // find the error without building a tree, and build one only if there is no error after all.
  Result<Value, ParseError> located = parse_prechecked(bytes, limits, false);
  if (!located) return located;
  return parse_prechecked(bytes, limits);
}

namespace detail {

Result<Value, ParseError> parse_with_simdjson(std::string_view bytes, const ParseLimits& limits) {
  if (auto error = precheck(bytes, limits)) return *std::move(error);
  return parse_prechecked(bytes, limits);
}

}  // namespace detail

}  // namespace crosscheck::json
