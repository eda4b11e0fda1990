// parse_simdjson.cpp: parse()'s simdjson path (parse_paths.hpp), which words every error and places
// it (byte offset, line, column).
#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "json/detail/parse_paths.hpp"
#include "json/detail/parse_text.hpp"

namespace crosscheck::json::parsing {
namespace {

namespace od = simdjson::ondemand;

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

Result<Value, ParseError> parse_prechecked(std::string_view bytes, const ParseLimits& limits,
                                           bool build_values) {
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

}  // namespace crosscheck::json::parsing
