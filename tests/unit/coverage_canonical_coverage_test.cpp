// Tests of layer-2 schema coverage (src/coverage/canonical_coverage.cpp) on a small schema of our
// own: which compiled nodes are counted (both outcomes possible), that the reference validator's
// evaluation records pass and fail per node (probes of anyOf/not/if included), the figures, the
// unreached lists, and the round trip through coverage.json's "canonical".
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "canonical/canonical_validator.hpp"
#include "coverage/canonical_coverage.hpp"
#include "json/parse.hpp"
#include "json/schema_node.hpp"
#include "run/coverage_file.hpp"

namespace crosscheck::campaign {
namespace {

// Counted (can pass and fail): the root (type object, required), /properties/name (type, pattern),
// /properties/kind (enum), /properties/tags (array of strings: through items), /properties/tags/items,
// /anyOf/0 and /anyOf/1 (each a const), /properties/mode (type, and its anyOf: every branch can fail),
// /properties/n (through its $ref), /$defs/positive (minimum), /properties/plain/not (type string),
// /properties/plain (not of a schema that can pass and fail).
// Not counted: /properties/any ({}: only an annotation), /properties/free (true),
// /additionalProperties (false: it only ever fails), /properties/never/not ({}: never fails) and
// /properties/never (not {}: never passes), /$defs/unused (nothing refers to it: unreachable).
constexpr const char* kSchema = R"({
  "$id": "https://example.com/t.schema.json",
  "type": "object",
  "required": ["name"],
  "properties": {
    "name": {"type": "string", "pattern": "^[a-z]+$"},
    "kind": {"enum": ["a", "b"]},
    "tags": {"items": {"type": "string"}},
    "mode": {"anyOf": [{"const": "x"}, {"const": "y"}]},
    "n": {"$ref": "#/$defs/positive"},
    "plain": {"not": {"type": "string"}},
    "any": {"description": "anything"},
    "free": true,
    "never": {"not": {}}
  },
  "additionalProperties": false,
  "$defs": {
    "positive": {"minimum": 1},
    "unused": {"type": "string"}
  }
})";

constexpr const char* kDocument = "t";

schema::Ir small_ir() {
  auto body = json::parse(kSchema);
  EXPECT_TRUE(body.ok());
  schema::Ir ir;
  ir.documents.push_back(schema::Document{"schema/t/t.schema.json", "", std::move(body.value())});
  return ir;
}

canonical::CanonicalValidator validator_of(const schema::Ir& ir) {
  auto v = canonical::CanonicalValidator::from_ir(ir);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().text());
  return std::move(v).value();
}

std::set<std::string> tracked_locations(const CanonicalCoverage& c, const canonical::CanonicalValidator& v) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < v.schemas().node_count(); ++i)
    if (c.is_tracked(static_cast<std::uint32_t>(i))) out.insert(v.schemas().node(i).location);
  return out;
}

void validate(const canonical::CanonicalValidator& v, CanonicalCoverage& c, const std::string& payload) {
  auto r = v.validate(kDocument, payload, &c);
  ASSERT_TRUE(r) << payload;
}

const std::string kAt = "schema/t/t.schema.json#";

TEST(CanonicalCoverage, CountsTheNodesThatCanBothPassAndFail) {
  schema::Ir ir = small_ir();
  auto v = validator_of(ir);
  CanonicalCoverage c(v, std::vector<std::string>{kDocument});
  std::set<std::string> expected;
  for (const char* p :
       {"", "/properties/name", "/properties/kind", "/properties/tags", "/properties/tags/items",
        "/properties/mode", "/properties/mode/anyOf/0", "/properties/mode/anyOf/1", "/properties/n",
        "/$defs/positive", "/properties/plain", "/properties/plain/not"})
    expected.insert(kAt + p);
  EXPECT_EQ(tracked_locations(c, v), expected);
  EXPECT_EQ(c.tracked(), expected.size());
  EXPECT_EQ(c.figures().reached_both, 0u);
  EXPECT_EQ(c.never_passed().size(), expected.size());
  // Nothing is counted for a document no root names.
  CanonicalCoverage none(v, std::vector<std::string>{"other"});
  EXPECT_EQ(none.tracked(), 0u);
  EXPECT_EQ(none.percent(), 100.0);
}

TEST(CanonicalCoverage, RecordsEachNodesOutcomesThroughTheValidator) {
  schema::Ir ir = small_ir();
  auto v = validator_of(ir);
  CanonicalCoverage c(v, std::vector<std::string>{kDocument});
  validate(v, c, R"({"name": "abc", "mode": "y"})");
  auto f = c.figures();
  // Passed: the root, name; mode and its second branch; its first branch failed (anyOf probes count).
  EXPECT_EQ(f.reached_passed, 4u);
  EXPECT_EQ(f.reached_failed, 1u);
  EXPECT_EQ(f.reached_both, 0u);
  auto never_failed = c.never_failed();
  EXPECT_EQ(std::count(never_failed.begin(), never_failed.end(), kAt + "/properties/mode/anyOf/0"), 0);
  EXPECT_EQ(std::count(never_failed.begin(), never_failed.end(), kAt + "/properties/mode/anyOf/1"), 1);

  validate(v, c, R"({"name": "ABC", "mode": "x", "kind": "a", "n": 0, "plain": 3, "tags": ["q", 1]})");
  validate(v, c, R"({"kind": "c", "n": 2, "plain": "s", "mode": 1, "tags": []})");
  f = c.figures();
  EXPECT_EQ(f.reached_both, c.tracked()) << c.describe();
  EXPECT_EQ(c.percent(), 100.0);
  EXPECT_TRUE(c.never_passed().empty());
  EXPECT_TRUE(c.never_failed().empty());
  // A payload that is not JSON evaluates nothing.
  CanonicalCoverage fresh(v, std::vector<std::string>{kDocument});
  validate(v, fresh, "{");
  EXPECT_EQ(fresh.figures().reached_passed + fresh.figures().reached_failed, 0u);
}

TEST(CanonicalCoverage, RoundTripsThroughCoverageJsonAndRestores) {
  schema::Ir ir = small_ir();
  auto v = validator_of(ir);
  CanonicalCoverage c(v, std::vector<std::string>{kDocument});
  validate(v, c, R"({"name": "abc", "mode": "y", "n": 0})");
  const auto dir =
      std::filesystem::temp_directory_path() / ("canonical_coverage." + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  run::CoverageFile file;
  file.canonical = c.to_file();
  run::write_coverage(dir, file);  // checked against coverage.schema.json when read back
  auto back = run::read_coverage(dir);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(back);
  ASSERT_TRUE(back->canonical);
  EXPECT_EQ(back->canonical->flags, file.canonical->flags);
  EXPECT_EQ(back->canonical->figures.tracked, c.tracked());
  EXPECT_EQ(back->canonical->figures.reached_passed, c.figures().reached_passed);
  EXPECT_EQ(back->canonical->figures.reached_failed, c.figures().reached_failed);
  EXPECT_EQ(back->canonical->never_passed, c.never_passed());
  EXPECT_EQ(back->canonical->never_failed, c.never_failed());
  CanonicalCoverage resumed(v, std::vector<std::string>{kDocument});
  resumed.restore(*back->canonical);
  EXPECT_EQ(resumed.figures().reached_both, c.figures().reached_both);
  EXPECT_EQ(resumed.never_failed(), c.never_failed());
  EXPECT_EQ(resumed.describe(), c.describe());
}

}  // namespace
}  // namespace crosscheck::campaign
