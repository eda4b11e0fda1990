// raw_spans.cpp: a skipping scanner over already-validated JSON text.
#include "layers/contextual/rows/raw_spans.hpp"

#include <string>

#include "json/parse.hpp"

namespace crosscheck::scenario {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  std::size_t skip_ws(std::size_t i) const {
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t' || text_[i] == '\n' || text_[i] == '\r'))
      ++i;
    return i;
  }

  /// End of the string token starting at the quote at `i`.
  std::size_t skip_string(std::size_t i) const {
    for (++i; i < text_.size(); ++i) {
      if (text_[i] == '\\') {
        ++i;
      } else if (text_[i] == '"') {
        return i + 1;
      }
    }
    return text_.size();
  }

  /// End of the value starting at `i` (no leading whitespace). Nesting is tracked with a counter,
  /// so depth costs nothing.
  std::size_t skip_value(std::size_t i) const {
    if (i >= text_.size()) return i;
    char c = text_[i];
    if (c == '"') return skip_string(i);
    if (c != '{' && c != '[') {
      while (i < text_.size() && !is_delimiter(text_[i])) ++i;
      return i;
    }
    std::size_t depth = 0;
    while (i < text_.size()) {
      char ch = text_[i];
      if (ch == '"') {
        i = skip_string(i);
        continue;
      }
      if (ch == '{' || ch == '[') ++depth;
      if (ch == '}' || ch == ']') {
        if (--depth == 0) return i + 1;
      }
      ++i;
    }
    return i;
  }

  /// The decoded key of the string token [begin, end).
  std::string key(std::size_t begin, std::size_t end) const {
    std::string_view token = text_.substr(begin, end - begin);
    if (token.find('\\') == std::string_view::npos) return std::string(token.substr(1, token.size() - 2));
    auto parsed = json::parse(token);
    return parsed.ok() && parsed->is_string() ? parsed->string_value() : std::string();
  }

 private:
  static bool is_delimiter(char c) {
    return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }
  std::string_view text_;
};

}  // namespace

Span document_span(std::string_view text) {
  Scanner s(text);
  std::size_t begin = s.skip_ws(0);
  return Span{begin, s.skip_value(begin)};
}

std::optional<Span> member_span(std::string_view text, Span object, std::string_view key) {
  Scanner s(text);
  if (object.begin >= object.end || text[object.begin] != '{') return std::nullopt;
  std::optional<Span> found;
  std::size_t i = s.skip_ws(object.begin + 1);
  while (i < object.end && text[i] == '"') {
    std::size_t key_end = s.skip_string(i);
    bool match = s.key(i, key_end) == key;
    std::size_t value = s.skip_ws(s.skip_ws(key_end) + 1);  // past ':'
    std::size_t value_end = s.skip_value(value);
    if (match) found = Span{value, value_end};
    i = s.skip_ws(value_end);
    if (i < object.end && text[i] == ',') i = s.skip_ws(i + 1);
  }
  return found;
}

std::vector<Span> element_spans(std::string_view text, Span array) {
  Scanner s(text);
  std::vector<Span> out;
  if (array.begin >= array.end || text[array.begin] != '[') return out;
  std::size_t i = s.skip_ws(array.begin + 1);
  while (i < array.end && text[i] != ']') {
    std::size_t end = s.skip_value(i);
    out.push_back(Span{i, end});
    i = s.skip_ws(end);
    if (i < array.end && text[i] == ',') i = s.skip_ws(i + 1);
  }
  return out;
}

}  // namespace crosscheck::scenario
