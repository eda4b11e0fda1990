// merge_io.cpp: file and JSON helpers of crosscheck merge (see merge_io.hpp).
#include "campaign/merge_io.hpp"

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

std::string pretty(const json::Value& v, int indent) {
  json::WriteOptions o;
  o.indent = indent;
  return json::write(v, o) + "\n";
}

}  // namespace crosscheck::campaign::merging
