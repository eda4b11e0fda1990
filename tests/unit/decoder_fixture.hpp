// decoder_fixture.hpp: loads the hand-written IR fixtures of tests/data/ir (emit-ir layout) for the
// decoder tests, and small helpers to compare diagnostics.
#pragma once

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "decoder/decoder.hpp"
#include "json/parse.hpp"
#include "schema/ir_json.hpp"

namespace crosscheck::decoder::testing {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

inline json::Value fixture_json(const std::string& name) {
  auto parsed = json::parse(read_file(std::string(CROSSCHECK_TEST_DATA) + "/ir/" + name));
  if (!parsed.ok()) throw std::runtime_error(name + ": " + parsed.error().message());
  return std::move(parsed).value();
}

inline schema::Ir load_fixture(const std::string& name) {
  auto ir = schema::ir_from_json(fixture_json(name));
  if (!ir.ok()) throw std::runtime_error(name + ": " + ir.error());
  return std::move(ir).value();
}

inline const schema::Root& root_of(const schema::Ir& ir, const std::string& name) {
  for (const auto& root : ir.roots) {
    if (root.public_name == name || root.snake_name == name) return root;
  }
  throw std::runtime_error("no root " + name);
}

/// (path, code, severity) of one expected diagnostic.
using Expect = std::tuple<std::string, std::string, Severity>;

/// The diagnostics as sorted (path, code, severity) triples: the SDKs agree on the multiset.
inline std::vector<Expect> triples(const std::vector<Diagnostic>& diagnostics) {
  std::vector<Expect> out;
  for (const auto& d : diagnostics) out.emplace_back(d.path, d.code, d.severity);
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<Expect> sorted(std::vector<Expect> expects) {
  std::sort(expects.begin(), expects.end());
  return expects;
}

constexpr Severity E = Severity::kError;
constexpr Severity W = Severity::kWarning;

}  // namespace crosscheck::decoder::testing
