// parse.cpp: strict RFC 8259 parsing into the lossless tree.
//
// simdjson's On-Demand API drives the structure (it was measured 26x faster than nlohmann's DOM on an
// AHP message; see bench/bench_json.cpp). It keeps members in order with duplicates, and gives each
// scalar's raw text. What it does not give, this file adds: the number grammar is checked on the raw
// token, strings are unescaped here into WTF-8 so lone surrogate escapes survive, and every error
// gets a byte offset, line and column.
#include "json/parse.hpp"

#include <simdjson.h>

#include <algorithm>
#include <optional>

#include "json/wtf8.hpp"

namespace crosscheck::json {
namespace {

namespace od = simdjson::ondemand;

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim_ws(std::string_view s) {
  while (!s.empty() && is_ws(s.back())) s.remove_suffix(1);
  return s;
}

/// Offset of the first byte that breaks UTF-8 (RFC 3629: no overlongs, no surrogates, <= U+10FFFF).
std::size_t first_invalid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t n = s.size(), i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
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
std::size_t end_of_first_value(std::string_view s) {
  std::size_t i = s.find_first_not_of(" \t\n\r");
  if (i == std::string_view::npos) return s.size();
  auto skip_string = [&](std::size_t k) {  // k at the opening quote; returns past the closing one
    for (++k; k < s.size(); ++k) {
      if (s[k] == '\\')
        ++k;
      else if (s[k] == '"')
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
  while (i < s.size()) {
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
  Builder(std::string_view input, const ParseLimits& limits) : input_(input), limits_(limits) {}

  std::optional<ParseError> error;

  void fail(std::size_t offset, std::string expected) {
    if (error) return;
    ParseError e;
    e.offset = offset > input_.size() ? input_.size() : offset;
    for (std::size_t i = 0; i < e.offset; ++i) {
      if (input_[i] == '\n') {
        ++e.line;
        e.column = 1;
      } else {
        ++e.column;
      }
    }
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
    const char* end = input_.data() + input_.size();
    out.clear();
    while (p < end) {
      unsigned char c = static_cast<unsigned char>(*p);
      if (c == '"') return true;
      if (c < 0x20) {
        fail(offset_of(p), "a string character (control characters must be escaped)");
        return false;
      }
      if (c != '\\') {
        const char* run = p;
        while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
        out.append(run, static_cast<std::size_t>(p - run));
        continue;
      }
      if (p + 1 >= end) break;
      char e = p[1];
      switch (e) {
        case '"':
          out.push_back('"');
          p += 2;
          continue;
        case '\\':
          out.push_back('\\');
          p += 2;
          continue;
        case '/':
          out.push_back('/');
          p += 2;
          continue;
        case 'b':
          out.push_back('\b');
          p += 2;
          continue;
        case 'f':
          out.push_back('\f');
          p += 2;
          continue;
        case 'n':
          out.push_back('\n');
          p += 2;
          continue;
        case 'r':
          out.push_back('\r');
          p += 2;
          continue;
        case 't':
          out.push_back('\t');
          p += 2;
          continue;
        case 'u':
          break;
        default:
          fail(offset_of(p), "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)");
          return false;
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
      if (!read_hex4(p, cp)) {
        fail(offset_of(p), "four hex digits after \\u");
        return false;
      }
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
        std::string s;
        if (!read_string(raw.raw(), s)) return false;
        out = Value::string(std::move(s));
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
          out = Value::number(std::string(token));
        } else if (token == "true" || token == "false") {
          out = Value::boolean(token == "true");
        } else if (token == "null") {
          out = Value::null();
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
    out = Value::array();
    for (auto element : array) {
      od::value child;
      if (auto code = element.get(child)) {
        fail_simd(v, code, "a value, ',' or ']'");
        return false;
      }
      out.items().emplace_back();
      if (!build(child, depth + 1, out.items().back())) return false;
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
    out = Value::object();
    for (auto field_result : object) {
      od::field field;
      if (auto code = std::move(field_result).get(field)) {
        fail_simd(v, code, "a member name, ',' or '}'");
        return false;
      }
      std::string key;
      if (!read_string(field.key().raw(), key)) return false;
      od::value child = field.value();
      Value member;
      if (!build(child, depth + 1, member)) return false;
      out.add(std::move(key), std::move(member));
    }
    return true;
  }

 private:
  std::string_view input_;
  const ParseLimits& limits_;
};

}  // namespace

std::string ParseError::message() const {
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + " (byte " +
         std::to_string(offset) + "): expected " + expected;
}

bool is_valid_utf8(std::string_view bytes) { return simdjson::validate_utf8(bytes.data(), bytes.size()); }

Result<Value, ParseError> parse(std::string_view bytes, const ParseLimits& limits) {
  Builder builder(bytes, limits);
  if (bytes.size() > limits.max_bytes) {
    builder.fail(limits.max_bytes, "at most " + std::to_string(limits.max_bytes) + " bytes");
    return *builder.error;
  }
  if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF") {
    builder.fail(0, "a JSON value (a byte order mark is not allowed)");
    return *builder.error;
  }
  if (!simdjson::validate_utf8(bytes.data(), bytes.size())) {
    builder.fail(first_invalid_utf8(bytes), "UTF-8 text");
    return *builder.error;
  }
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
  Builder padded_builder(std::string_view(padded.data(), bytes.size()), limits);
  Value root;
  if (!padded_builder.build(doc, 0, root)) return *padded_builder.error;
  // Anything but whitespace after the root value is an error.
  if (padded_builder.fail_trailing()) return *padded_builder.error;
  return root;
}

}  // namespace crosscheck::json
