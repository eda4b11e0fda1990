// baseline.cpp: reading, validating, matching and appending baseline entries.
#include "baseline/baseline.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "json/parse.hpp"
#include "json/pointer.hpp"
#include "json/schema_validator.hpp"
#include "json/splice.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::baseline {
namespace {

using json::Value;

/// The first duplicate member name in document order, as a pointer to it.
std::optional<std::string> duplicate_key(const Value& v, const std::string& at) {
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      if (auto d = duplicate_key(v.items()[i], at + "/" + std::to_string(i))) return d;
    }
  } else if (v.is_object()) {
    std::set<std::string_view> seen;
    for (const auto& m : v.members()) {
      std::string child = at;
      json::append_pointer_token(child, m.key);
      if (!seen.insert(m.key).second) return child;
      if (auto d = duplicate_key(m.value, child)) return d;
    }
  }
  return std::nullopt;
}

std::optional<std::string> opt_string(const Value& o, std::string_view key) {
  const Value* v = o.find(key);
  if (v && v->is_string()) return v->string_value();
  return std::nullopt;
}

std::vector<std::string> strings(const Value& o, std::string_view key) {
  std::vector<std::string> out;
  if (const Value* v = o.find(key))
    for (const auto& x : v->items()) out.push_back(x.string_value());
  return out;
}

}  // namespace

Result<Baseline, std::string> parse_baseline(std::string text, const std::string& path) {
  auto parsed = json::parse(text);
  if (!parsed.ok()) return path + ": not JSON: " + parsed.error().message();
  const Value& doc = parsed.value();
  if (auto dup = duplicate_key(doc, ""))
    return path + ": " + json::describe_location(doc, *dup) + ": duplicate field (each field once)";
  if (auto bad = json::shipped_schema("baseline.schema.json").validate(doc))
    return path + ": " + json::describe_location(doc, bad->pointer) + ": " + bad->message;
  Baseline b;
  b.path = path;
  std::map<std::string, std::size_t> ids;
  const auto& items = doc.find("entries")->items();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Value& x = items[i];
    Entry e;
    e.id = x.find("id")->string_value();
    if (auto [it, fresh] = ids.emplace(e.id, i); !fresh) {
      return path + ": " + json::describe_location(doc, "/entries/" + std::to_string(i) + "/id") +
             ": expected a unique id (also entries[" + std::to_string(it->second) + "])";
    }
    e.implementations = strings(x, "implementations");
    e.bucket = opt_string(x, "bucket");
    e.cases = strings(x, "cases");
    e.cls = opt_string(x, "class");
    e.root = opt_string(x, "root");
    if (const Value* wrong = x.find("referenceWrong")) e.reference_wrong = wrong->as_bool();
    if (e.reference_wrong && !names_implementation(e, verdict::kReferenceImplementation)) {
      return path + ": " +
             json::describe_location(doc, "/entries/" + std::to_string(i) + "/implementations") +
             ": expected the reference implementation '" + std::string(verdict::kReferenceImplementation) +
             "' among them (referenceWrong says the reference is the one in the wrong)";
    }
    e.reason = x.find("reason")->string_value();
    e.link = x.find("link")->string_value();
    e.signature = opt_string(x, "signature").value_or("");
    if (const Value* w = x.find("witness")) {
      Witness wit;
      wit.root = w->find("root")->string_value();
      wit.finding = opt_string(*w, "finding").value_or("");
      wit.replay = opt_string(*w, "replay").value_or("");
      if (auto text_input = opt_string(*w, "input")) {
        wit.input = *text_input;
      } else if (auto b64 = opt_string(*w, "inputBase64")) {
        auto bytes = base64_decode(*b64);
        if (!bytes) {
          return path + ": " +
                 json::describe_location(doc, "/entries/" + std::to_string(i) + "/witness/inputBase64") +
                 ": expected base64";
        }
        wit.input = *bytes;
      }
      e.witness = std::move(wit);
    }
    b.entries.push_back(std::move(e));
  }
  b.path = path;
  b.text = std::move(text);
  return b;
}

Baseline load_baseline(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Fatal("cannot read baseline " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  auto b = parse_baseline(ss.str(), path);
  if (!b.ok()) throw Fatal(b.error());
  return std::move(b.value());
}

bool glob_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0;
  std::size_t star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool is_bucket_id(std::string_view pattern) {
  if (pattern.size() != 16) return false;
  for (char c : pattern) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

bool names_implementation(const Entry& entry, std::string_view implementation) {
  for (const auto& p : entry.implementations) {
    if (glob_match(p, implementation)) return true;
  }
  return false;
}

bool matches_divergence(const Entry& entry, std::string_view root, const core::Divergence& d) {
  if (!entry.bucket) return false;
  if (entry.cls && *entry.cls != core::class_name(d.cls)) return false;
  if (entry.root && !glob_match(*entry.root, root)) return false;
  bool involved = false;
  for (const auto& impl : d.implementations) involved = involved || names_implementation(entry, impl);
  if (!involved) return false;
  return is_bucket_id(*entry.bucket) ? *entry.bucket == d.bucket : glob_match(*entry.bucket, d.signature);
}

bool matches_case(const Entry& entry, std::string_view implementation, std::string_view case_id) {
  if (!names_implementation(entry, implementation)) return false;
  for (const auto& c : entry.cases) {
    if (glob_match(c, case_id)) return true;
  }
  return false;
}

json::Value entry_to_json(const Entry& e) {
  Value o = Value::object();
  o.add("id", Value::string(e.id));
  Value impls = Value::array();
  for (const auto& i : e.implementations) impls.push(Value::string(i));
  o.add("implementations", std::move(impls));
  if (e.bucket) o.add("bucket", Value::string(*e.bucket));
  if (!e.cases.empty()) {
    Value cases = Value::array();
    for (const auto& c : e.cases) cases.push(Value::string(c));
    o.add("cases", std::move(cases));
  }
  if (e.cls) o.add("class", Value::string(*e.cls));
  if (e.root) o.add("root", Value::string(*e.root));
  if (e.reference_wrong) o.add("referenceWrong", Value::boolean(true));
  o.add("reason", Value::string(e.reason));
  o.add("link", Value::string(e.link));
  if (!e.signature.empty()) o.add("signature", Value::string(e.signature));
  if (e.witness) {
    Value w = Value::object();
    w.add("root", Value::string(e.witness->root));
    if (e.witness->input && json::is_valid_utf8(*e.witness->input)) {
      w.add("input", Value::string(*e.witness->input));
    } else if (e.witness->input) {
      w.add("inputBase64", Value::string(base64_encode(*e.witness->input)));
    }
    if (!e.witness->finding.empty()) w.add("finding", Value::string(e.witness->finding));
    if (!e.witness->replay.empty()) w.add("replay", Value::string(e.witness->replay));
    o.add("witness", std::move(w));
  }
  return o;
}

std::string append_entries(const std::string& text, const std::vector<Entry>& entries) {
  json::WriteOptions pretty;
  pretty.indent = 2;
  std::vector<std::string> elements;
  for (const auto& e : entries) {
    std::string indented = "    ";
    for (char c : json::write(entry_to_json(e), pretty)) {
      indented += c;
      if (c == '\n') indented += "    ";
    }
    elements.push_back(std::move(indented));
  }
  std::string base =
      text.empty() ? "{\n  \"format\": \"crosscheck-baseline/1\",\n  \"entries\": []\n}\n" : text;
  return json::append_to_array_member(base, "entries", elements, "  ");
}

}  // namespace crosscheck::baseline
