// matrix_file.cpp: reading matrices, canonical payload text, case lines.
#include "matrix/matrix_file.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "util/result.hpp"

namespace crosscheck::matrix {
namespace {

/// Python's json.dumps(value) layout (", " and ": ", ensure_ascii), numbers as spelled.
void write_spaced(const json::Value& v, std::string& out) {
  switch (v.kind()) {
    case json::Kind::kArray:
      out += '[';
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        if (i) out += ", ";
        write_spaced(v.items()[i], out);
      }
      out += ']';
      break;
    case json::Kind::kObject:
      out += '{';
      for (std::size_t i = 0; i < v.members().size(); ++i) {
        if (i) out += ", ";
        out += json::quote(v.members()[i].key, true) + ": ";
        write_spaced(v.members()[i].value, out);
      }
      out += '}';
      break;
    case json::Kind::kString:
      out += json::quote(v.string_value(), true);
      break;
    default:
      out += json::write(v);
  }
}

}  // namespace

Matrix load_matrix(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Fatal("cannot read matrix " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  Matrix out;
  out.path = path;
  out.text = ss.str();
  json::ParseLimits limits;
  limits.max_bytes = std::size_t{1} << 30;
  auto parsed = json::parse(out.text, limits);
  if (!parsed.ok()) throw Fatal(path + ": not JSON: " + parsed.error().message());
  const json::Value* contract = parsed.value().is_object() ? parsed.value().find("contract") : nullptr;
  if (contract && contract->is_string()) out.contract = contract->string_value();
  const json::Value* cases = parsed.value().is_object() ? parsed.value().find("cases") : nullptr;
  if (!cases || !cases->is_array()) throw Fatal(path + ": field 'cases': expected an array of cases");
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < cases->items().size(); ++i) {
    const json::Value& c = cases->items()[i];
    std::string where = path + ": cases[" + std::to_string(i) + "]";
    if (!c.is_object()) throw Fatal(where + ": expected an object");
    MatrixCase m;
    const json::Value* id = c.find("id");
    if (!id || !id->is_string()) throw Fatal(where + ".id: expected a string");
    m.id = id->string_value();
    where += " (" + m.id + ")";
    if (!seen.emplace(m.id, i).second)
      throw Fatal(where + ".id: expected a unique id (also cases[" + std::to_string(seen[m.id]) + "])");
    const json::Value* root = c.find("root");
    if (!root || !root->is_string()) throw Fatal(where + ".root: expected a string");
    m.root = root->string_value();
    const json::Value* value = c.find("value");
    if (!value) throw Fatal(where + ".value: expected a JSON value");
    m.value = *value;
    m.text = json::write(*value);
    const json::Value* accepted = c.find("accepted");
    const json::Value* warning = c.find("warning");
    if (!accepted || !accepted->is_bool()) throw Fatal(where + ".accepted: expected true or false");
    if (!warning || !warning->is_bool()) throw Fatal(where + ".warning: expected true or false");
    m.accepted = accepted->as_bool();
    m.warning = warning->as_bool();
    out.cases.push_back(std::move(m));
  }
  return out;
}

std::string canonical_text(const json::Value& v) {
  switch (v.kind()) {
    case json::Kind::kNumber:
      return json::canonical_number(v.number_text());
    case json::Kind::kString:
      return json::quote(v.string_value(), true);
    case json::Kind::kArray: {
      std::string out = "[";
      for (std::size_t i = 0; i < v.items().size(); ++i) out += (i ? "," : "") + canonical_text(v.items()[i]);
      return out + "]";
    }
    case json::Kind::kObject: {
      std::map<std::string, const json::Value*> members;  // WTF-8 byte order = code point order
      for (const auto& m : v.members()) members[m.key] = &m.value;
      std::string out = "{";
      for (const auto& [key, value] : members)
        out += (out.size() > 1 ? "," : "") + json::quote(key, true) + ":" + canonical_text(*value);
      return out + "}";
    }
    default:
      return json::write(v);
  }
}

std::string case_line(const MatrixCase& c) {
  std::string out =
      "{\"id\": " + json::quote(c.id, true) + ", \"root\": " + json::quote(c.root, true) + ", \"value\": ";
  write_spaced(c.value, out);
  out += std::string(", \"accepted\": ") + (c.accepted ? "true" : "false") +
         ", \"warning\": " + (c.warning ? "true" : "false") + "}";
  return out;
}

}  // namespace crosscheck::matrix
