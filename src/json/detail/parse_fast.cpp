// parse_fast.cpp: parse()'s fast path (parse_paths.hpp).
#include <simdjson.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "json/detail/parse_paths.hpp"
#include "json/detail/parse_text.hpp"

namespace crosscheck::json::parsing {
namespace {

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

}  // namespace

bool parse_fast(std::string_view bytes, std::size_t max_depth, Value& out, std::string* compact) {
  FastParser fast;
  return fast.parse(bytes, max_depth, out, compact);
}

}  // namespace crosscheck::json::parsing
