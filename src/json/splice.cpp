// splice.cpp: a byte-preserving append to a top-level array member of JSON text.
#include "json/splice.hpp"

#include <tuple>
#include <utility>

#include "json/parse.hpp"
#include "util/result.hpp"

namespace crosscheck::json {
namespace {

// The text was parsed before (callers hold valid JSON), so these scanners only need to find ends.
std::size_t skip_string(const std::string& t, std::size_t k) {
  for (++k; t[k] != '"'; ++k) {
    if (t[k] == '\\') ++k;
  }
  return k + 1;
}

std::size_t skip_value(const std::string& t, std::size_t i) {
  if (t[i] == '"') return skip_string(t, i);
  if (t[i] == '{' || t[i] == '[') {
    int depth = 0;
    while (true) {
      char c = t[i];
      if (c == '"') {
        i = skip_string(t, i);
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if ((c == '}' || c == ']') && --depth == 0) return i + 1;
      ++i;
    }
  }
  while (i < t.size() && std::string_view(",}] \t\r\n").find(t[i]) == std::string_view::npos) ++i;
  return i;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::size_t skip_space(const std::string& t, std::size_t i) {
  while (i < t.size() && is_space(t[i])) ++i;
  return i;
}

}  // namespace

std::string append_to_array_member(const std::string& text, std::string_view member,
                                   const std::vector<std::string>& elements,
                                   std::string_view closing_indent) {
  if (elements.empty()) return text;
  std::size_t open = std::string::npos, close = 0;
  std::size_t i = skip_space(text, 0);
  if (i >= text.size() || text[i] != '{') throw Fatal("internal: append_to_array_member needs an object");
  ++i;
  while (true) {
    i = skip_space(text, i);
    if (i >= text.size() || text[i] == '}') break;
    std::size_t key_end = skip_value(text, i);
    auto key = parse(std::string_view(text).substr(i, key_end - i));
    i = skip_space(text, skip_space(text, key_end) + 1);  // past ':'
    std::size_t end = skip_value(text, i);
    // Duplicate keys: the last one wins, as everywhere in crosscheck.
    if (key.ok() && key.value().string_value() == member && text[i] == '[')
      std::tie(open, close) = std::pair(i, end - 1);
    i = skip_space(text, end);
    if (i < text.size() && text[i] == ',') ++i;
  }
  if (open == std::string::npos)
    throw Fatal("internal: no array member '" + std::string(member) + "' to append to");
  std::string joined;
  for (const auto& e : elements) joined += (joined.empty() ? "" : ",\n") + e;
  std::size_t before = close;
  while (before > open + 1 && is_space(text[before - 1])) --before;
  if (before == open + 1) {
    return text.substr(0, open + 1) + "\n" + joined + "\n" + std::string(closing_indent) + text.substr(close);
  }
  return text.substr(0, before) + ",\n" + joined + text.substr(before);
}

}  // namespace crosscheck::json
