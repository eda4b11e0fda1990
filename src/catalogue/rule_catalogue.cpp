// rule_catalogue.cpp: reading the rule catalogue, and the rules a finding breaks.
#include "catalogue/rule_catalogue.hpp"

#include <algorithm>
#include <map>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "util/file.hpp"
#include "util/result.hpp"

namespace crosscheck::catalogue {
namespace {

std::vector<std::string> strings(const json::Value* v) {
  std::vector<std::string> out;
  if (v && v->is_array())
    for (const auto& x : v->items()) out.push_back(x.string_value());
  return out;
}

std::string text_at(const json::Value& o, std::string_view key) {
  const json::Value* v = o.find(key);
  return v && v->is_string() ? v->string_value() : "";
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return !item.empty() && std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

const CatalogueRule* RuleCatalogue::find(std::string_view id) const {
  for (const auto& r : rules)
    if (r.id == id) return &r;
  return nullptr;
}

std::string shipped_catalogue_path(const std::string& repository_root) {
  return repository_root + "/contract/rule-catalogue.json";
}

RuleCatalogue read_rule_catalogue(const std::string& path) {
  auto text = read_file_bytes(path);
  if (!text)
    throw Fatal(path + ": cannot be read (the rule catalogue: a JSON file, " +
                "schemas/rule-catalogue.schema.json)");
  auto parsed = json::parse(*text);
  if (!parsed.ok()) throw Fatal(path + ": not JSON: " + parsed.error().message());
  const json::Value& doc = parsed.value();
  if (auto bad = json::shipped_schema("rule-catalogue.schema.json").validate(doc))
    throw Fatal(path + ": " + json::describe_location(doc, bad->pointer) + ": " + bad->message);
  RuleCatalogue c;
  c.path = path;
  std::map<std::string, std::size_t> seen;
  const auto& items = doc.find("rules")->items();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const json::Value& x = items[i];
    CatalogueRule r;
    r.id = text_at(x, "id");
    if (auto [it, fresh] = seen.emplace(r.id, i); !fresh)
      throw Fatal(path + ": " + json::describe_location(doc, "/rules/" + std::to_string(i) + "/id") +
                  ": expected a unique id (also rules[" + std::to_string(it->second) + "])");
    r.layer = text_at(x, "layer");
    r.text = text_at(x, "rule");
    r.status = text_at(x, "status");
    r.why = text_at(x, "why");
    const json::Value* checks = x.find("checks");
    r.families = strings(checks->find("families"));
    r.classes = strings(checks->find("classes"));
    r.host_rules = strings(checks->find("hostRules"));
    r.cases = strings(checks->find("cases"));
    r.tests = strings(checks->find("tests"));
    c.rules.push_back(std::move(r));
  }
  return c;
}

FindingOrigin origin_of(const run::Finding& finding) {
  FindingOrigin o;
  if (finding.scenario) {
    // The row is the input (a scenario row's JSON); a generated one carries family: and rule: tags.
    auto row = json::parse(finding.input);
    if (!row.ok() || !row.value().is_object()) return o;
    for (const auto& tag : strings(row.value().find("tags"))) {
      if (tag.rfind("family:", 0) == 0) o.family = tag.substr(7);
      if (tag.rfind("rule:", 0) == 0) o.host_rule = tag.substr(5);
    }
    return o;
  }
  // fuzz writes "fuzz iteration N (<what generated it>)", the generation step "<family>: <description>";
  // "generated" and "corpus bytes" name no family.
  std::string what = finding.source;
  static const std::string kIteration = "fuzz iteration ";
  if (what.rfind(kIteration, 0) == 0) {
    auto open = what.find(" (");
    what =
        open == std::string::npos || what.back() != ')' ? "" : what.substr(open + 2, what.size() - open - 3);
  }
  if (auto colon = what.find(": "); colon != std::string::npos) o.family = what.substr(0, colon);
  return o;
}

std::vector<std::string> rules_broken_by(const RuleCatalogue& catalogue, const run::Finding& finding) {
  FindingOrigin origin = origin_of(finding);
  std::vector<std::string> classes;
  for (const auto& d : finding.divergences) classes.push_back(core::class_name(d.cls));
  std::vector<std::string> out;
  for (const auto& r : catalogue.rules) {
    if (!contains(r.families, origin.family) && !contains(r.host_rules, origin.host_rule)) continue;
    bool class_fits = r.classes.empty() || std::any_of(classes.begin(), classes.end(),
                                                       [&](const auto& c) { return contains(r.classes, c); });
    if (class_fits) out.push_back(r.id);
  }
  return out;
}

}  // namespace crosscheck::catalogue
