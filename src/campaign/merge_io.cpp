// merge_io.cpp: file and JSON helpers of crosscheck merge (see merge_io.hpp).
#include "campaign/merge_io.hpp"

#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>

#include "json/parse.hpp"
#include "json/write.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign::merging {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Fatal(p.string() + ": cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Fatal(p.string() + ": cannot be read");
  return ss.str();
}

json::Value parse_file(const std::filesystem::path& p) {
  auto parsed = json::parse(read_file(p));
  if (!parsed.ok()) throw Fatal(p.string() + ": not valid JSON (" + parsed.error().message() + ")");
  return std::move(parsed.value());
}

const std::string* string_member(const json::Value& o, std::string_view key) {
  const json::Value* v = o.is_object() ? o.find(key) : nullptr;
  return v && v->is_string() ? &v->string_value() : nullptr;
}

void set_member(json::Value& o, const std::string& key, json::Value value) {
  if (json::Value* v = o.find(key))
    *v = std::move(value);
  else
    o.add(key, std::move(value));
}

json::Value number(std::uint64_t n) { return json::Value::number(std::to_string(n)); }

std::uint64_t number_or_zero(const json::Value* v) {
  if (!v || !v->is_number()) return 0;
  try {
    return std::stoull(v->number_text());
  } catch (const std::exception&) {
    return 0;
  }
}

double double_or_zero(const json::Value* v) {
  return v && v->is_number() ? std::strtod(v->number_text().c_str(), nullptr) : 0.0;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string pretty(const json::Value& v, int indent) {
  json::WriteOptions o;
  o.indent = indent;
  return json::write(v, o) + "\n";
}

}  // namespace crosscheck::campaign::merging
