// core_divergence_classes_test.cpp: the divergence classes are one list
// (src/core/divergence_classes.def), and every JSON Schema in schemas/ that enumerates classes
// lists exactly its names. No compiler sees a schema's enum, so this test is what keeps the two equal;
// it scans every schemas/*.json, so a schema added later is covered without changing the test. An
// enum that shares a name with the list must be the list; a 'class' enum with none of its names is
// another layer's vocabulary and is only reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/divergence.hpp"
#include "json/parse.hpp"
#include "json/pointer.hpp"

namespace crosscheck::core {
namespace {

namespace fs = std::filesystem;

/// Property names under which a schema holds a divergence class (finding files, baselines, the
/// self-test table, summaries).
const std::set<std::string> kClassKeys = {"class",           "cls",     "expectedClass",
                                          "divergenceClass", "classes", "byClass"};

std::set<std::string> table_names() {
  std::set<std::string> out;
  for (DivergenceClass c : all_classes()) out.insert(class_name(c));
  return out;
}

/// A name only a divergence class has (not also an adapter outcome such as "crash" or "timeout"):
/// an enum holding one is a class enum whatever its property is called.
bool class_only_name(const std::string& name) {
  return parse_class(name).has_value() && !parse_outcome(name).has_value();
}

struct ClassEnum {
  std::string where;  ///< JSON Pointer of the enum in its schema
  std::set<std::string> names;
};

std::set<std::string> strings_of(const json::Value& array) {
  std::set<std::string> out;
  for (const auto& x : array.items()) out.insert(x.is_string() ? x.string_value() : "<not a string>");
  return out;
}

/// Every enum in `v` that lists divergence classes: one under a property named in kClassKeys (directly,
/// or as the items of an array, or the keys or values of a map), or one holding a class-only name.
void collect(const json::Value& v, const std::string& pointer, bool under_class_key,
             std::vector<ClassEnum>& out) {
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.items().size(); ++i)
      collect(v.items()[i], pointer + "/" + std::to_string(i), false, out);
    return;
  }
  if (!v.is_object()) return;
  if (const json::Value* e = v.find("enum"); e && e->is_array()) {
    std::set<std::string> names = strings_of(*e);
    if (under_class_key || std::any_of(names.begin(), names.end(), class_only_name))
      out.push_back({pointer + "/enum", std::move(names)});
  }
  for (const auto& m : v.members()) {
    std::string child = pointer;
    json::append_pointer_token(child, m.key);
    bool class_key = false;
    if (m.key == "items" || m.key == "additionalProperties" || m.key == "propertyNames") {
      class_key = under_class_key;  // an array of classes, a map whose values or keys are classes
    } else if (kClassKeys.count(m.key) && pointer.size() >= 11 &&
               pointer.compare(pointer.size() - 11, 11, "/properties") == 0) {
      class_key = true;
    }
    collect(m.value, child, class_key, out);
  }
}

std::map<std::string, std::vector<ClassEnum>> class_enums_in_schemas() {
  std::map<std::string, std::vector<ClassEnum>> out;
  const fs::path dir = fs::path(CROSSCHECK_SOURCE_DIR) / "schemas";
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = json::parse(text.str());
    EXPECT_TRUE(parsed.ok()) << entry.path() << ": " << (parsed.ok() ? "" : parsed.error().message());
    if (!parsed.ok()) continue;
    std::vector<ClassEnum> found;
    collect(parsed.value(), "", false, found);
    out[entry.path().filename().string()] = std::move(found);
  }
  return out;
}

bool shares_a_name(const std::set<std::string>& a, const std::set<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& n) { return b.count(n) > 0; });
}

std::string joined(const std::set<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

struct Verdict {
  std::size_t checked = 0;                ///< enums compared with the list
  std::vector<std::string> mismatches;    ///< "<pointer> lists [...], divergence_classes.def has [...]"
  std::vector<std::string> other_layers;  ///< pointers of class enums sharing no name with the list
};

/// An enum that shares a name with the list must be the list; one sharing none is another layer's
/// vocabulary (a fixtures verdict, say).
Verdict judge(const std::vector<ClassEnum>& enums, const std::set<std::string>& expected) {
  Verdict v;
  for (const auto& e : enums) {
    if (!shares_a_name(e.names, expected)) {
      v.other_layers.push_back(e.where + " [" + joined(e.names) + "]");
      continue;
    }
    ++v.checked;
    if (e.names != expected)
      v.mismatches.push_back(e.where + " lists [" + joined(e.names) +
                             "], src/core/divergence_classes.def has [" + joined(expected) + "]");
  }
  return v;
}

TEST(DivergenceClasses, NamesAreUniqueAndParseBack) {
  const std::vector<DivergenceClass> all = all_classes();
  ASSERT_EQ(all.size(), 15u);
  std::set<std::string> names;
  for (DivergenceClass c : all) {
    const std::string name = class_name(c);
    EXPECT_TRUE(names.insert(name).second) << name << " is listed twice";
    EXPECT_NE(name, "?");
    ASSERT_TRUE(parse_class(name).has_value()) << name;
    EXPECT_EQ(*parse_class(name), c) << name;
  }
  EXPECT_FALSE(parse_class("Acceptance").has_value());
  EXPECT_FALSE(parse_class("").has_value());
  EXPECT_FALSE(parse_class("round-trip").has_value());
}

TEST(DivergenceClasses, RankIsReportOrder) {
  const std::vector<DivergenceClass> all = all_classes();
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_LT(class_rank(all[i - 1]), class_rank(all[i]));
  // The order reports list buckets in: harness failures, then contract verdicts, then the finer ones.
  std::vector<std::string> order;
  for (DivergenceClass c : all) order.push_back(class_name(c));
  EXPECT_EQ(order, (std::vector<std::string>{"crash", "timeout", "protocol", "sdk-error", "acceptance",
                                             "round-trip-cross", "round-trip-self", "warnings",
                                             "canonical-acceptance", "layer-inconsistency",
                                             "request-admission", "contextual-acceptance",
                                             "contextual-result", "contextual-expectation", "diagnostics"}));
}

TEST(DivergenceClasses, EverySchemaClassEnumEqualsTheTable) {
  const std::set<std::string> expected = table_names();
  const auto by_file = class_enums_in_schemas();
  ASSERT_TRUE(by_file.count("baseline.schema.json")) << "schemas/baseline.schema.json not read";
  // The baseline's optional 'class' filter is a class enum: if this fails, the scan above is broken
  // (or the baseline no longer restricts 'class'), and the checks below would prove nothing.
  bool baseline_has_one = false;
  for (const auto& e : by_file.at("baseline.schema.json")) {
    baseline_has_one = baseline_has_one || e.where.ends_with("/properties/class/enum");
  }
  EXPECT_TRUE(baseline_has_one) << "no enum at .../properties/class/enum in schemas/baseline.schema.json";
  std::size_t checked = 0;
  for (const auto& [file, enums] : by_file) {
    const Verdict v = judge(enums, expected);
    checked += v.checked;
    for (const auto& o : v.other_layers)
      std::cout << "[classes] schemas/" << file << " at " << o << " is another layer's set, not checked\n";
    for (const auto& m : v.mismatches) ADD_FAILURE() << "schemas/" << file << " at " << m;
  }
  EXPECT_GE(checked, 1u);
}

// The scan itself: it finds class enums by property name and by content, in nested schemas, and
// leaves other enums (an adapter outcome, which shares "crash" and "timeout") alone.
TEST(DivergenceClasses, ScanFindsClassEnumsAndOnlyThose) {
  auto schema = json::parse(R"({
    "properties": {
      "class": {"enum": ["acceptance"]},
      "outcome": {"enum": ["accepted", "rejected", "crash", "timeout", "protocol"]},
      "divergences": {"type": "array", "items": {"type": "object", "properties": {
        "kind": {"enum": ["warnings", "crash"]},
        "classes": {"type": "array", "items": {"enum": ["crash"]}}}}}
    },
    "$defs": {"x": {"properties": {"expectedClass": {"type": "string", "enum": ["timeout"]}}},
              "y": {"properties": {"class": {"enum": ["fixture-verdict"]}}}}
  })");
  ASSERT_TRUE(schema.ok());
  std::vector<ClassEnum> found;
  collect(schema.value(), "", false, found);
  std::vector<std::string> where;
  for (const auto& e : found) where.push_back(e.where);
  std::sort(where.begin(), where.end());
  EXPECT_EQ(where, (std::vector<std::string>{"/$defs/x/properties/expectedClass/enum",
                                             "/$defs/y/properties/class/enum", "/properties/class/enum",
                                             "/properties/divergences/items/properties/classes/items/enum",
                                             "/properties/divergences/items/properties/kind/enum"}));
  // Each of the four partial enums is a mismatch; the one sharing no name is another layer's.
  const Verdict v = judge(found, table_names());
  EXPECT_EQ(v.checked, 4u);
  EXPECT_EQ(v.mismatches.size(), 4u);
  ASSERT_EQ(v.other_layers.size(), 1u);
  EXPECT_EQ(v.other_layers[0], "/$defs/y/properties/class/enum [fixture-verdict]");
  // The full list, in any order, passes.
  std::vector<ClassEnum> full{{"/properties/class/enum", table_names()}};
  EXPECT_TRUE(judge(full, table_names()).mismatches.empty());
  std::set<std::string> missing_one = table_names();
  missing_one.erase("protocol");
  const Verdict stale = judge({{"/properties/class/enum", missing_one}}, table_names());
  ASSERT_EQ(stale.mismatches.size(), 1u);
  EXPECT_NE(stale.mismatches[0].find(
                "/properties/class/enum lists [acceptance, canonical-acceptance, contextual-acceptance,"),
            std::string::npos)
      << stale.mismatches[0];
}

}  // namespace
}  // namespace crosscheck::core
