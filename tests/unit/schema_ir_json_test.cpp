// Tests of the --emit-ir layout both ways: ir_from_json(to_json(ir)) round trip, ids, roots, and
// the errors for malformed layouts.
#include <gtest/gtest.h>

#include <set>

#include "decoder_fixture.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "schema/ir_json.hpp"

namespace crosscheck::schema {
namespace {

json::Value parse(const std::string& text) {
  auto v = json::parse(text);
  if (!v.ok()) throw std::runtime_error(v.error().message());
  return std::move(v).value();
}

void collect_ids(const Shape& s, std::vector<std::uint32_t>& ids) {
  ids.push_back(s.id);
  if (s.items) collect_ids(*s.items, ids);
  for (const auto& p : s.properties) collect_ids(*p.shape, ids);
  if (s.additional_shape) collect_ids(*s.additional_shape, ids);
  for (const auto& v : s.variants) collect_ids(*v, ids);
}

TEST(SchemaIrJson, FixtureRoundTripsThroughToJson) {
  for (const char* name : {"decoder_rules.ir.json", "cycles.ir.json"}) {
    json::Value original = decoder::testing::fixture_json(name);
    auto ir = ir_from_json(original);
    ASSERT_TRUE(ir.ok()) << ir.error();
    json::Value written = ir->to_json();
    EXPECT_TRUE(json::semantically_equal(original, written)) << json::write(written);
    auto again = ir_from_json(written);
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(json::write(again->to_json()), json::write(written));
    EXPECT_EQ(again->node_count, ir->node_count);
  }
}

TEST(SchemaIrJson, IdsAreDenseAndRootsAreNamed) {
  Ir ir = decoder::testing::load_fixture("decoder_rules.ir.json");
  std::vector<std::uint32_t> ids;
  for (const auto& [name, type] : ir.types) collect_ids(*type.shape, ids);
  ASSERT_EQ(ids.size(), ir.node_count);
  std::set<std::uint32_t> unique(ids.begin(), ids.end());
  EXPECT_EQ(unique.size(), ids.size());
  EXPECT_EQ(*unique.rbegin(), ir.node_count - 1);
  const Root* root = ir.find_root("id_or_null");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->public_name, "IdOrNull");
  EXPECT_EQ(root->document, "tests/data/ir/decoder_rules.ir.json");
  EXPECT_TRUE(std::is_sorted(ir.roots.begin(), ir.roots.end(),
                             [](const Root& a, const Root& b) { return a.snake_name < b.snake_name; }));
  const NamedType* integers = ir.find_type("Integers");
  ASSERT_NE(integers, nullptr);
  EXPECT_EQ(integers->source, "decoder_rules#/Integers");
  const Shape& count = *integers->shape->properties[0].shape;  // "count": boundedInteger minimum 0
  EXPECT_EQ(count.kind, ShapeKind::kInteger);
  EXPECT_EQ(count.minimum, std::optional<std::string>("0"));
  EXPECT_FALSE(count.maximum.has_value());
  EXPECT_EQ(count.source, "ir:Integers#/properties/0/shape");
  EXPECT_EQ(ir.find_type("Typed")->shape->additional_shape->kind, ShapeKind::kInteger);
  EXPECT_FALSE(ir.find_type("Closed")->shape->additional_allowed);
  EXPECT_EQ(ir.find_type("Event")->shape->discriminator, std::optional<std::string>("type"));
}

TEST(SchemaIrJson, MalformedLayoutsNameThePlace) {
  auto layout = [](const std::string& shape) {
    return parse(R"({"schemaRevision":"d","protocolVersion":"d","roots":[{"name":"T","schema":"t.json"}],)"
                 R"("types":[{"name":"T","source":"t#","shape":)" +
                 shape + "}]}");
  };
  EXPECT_TRUE(ir_from_json(layout(R"({"kind":"any"})")).ok());
  struct Bad {
    std::string shape;
    std::string error;
  };
  for (
      const Bad& bad : std::vector<Bad>{
          {R"({"kind":"bogus"})", "/types/0/shape/kind: expected a known shape kind"},
          {R"({"kind":"ref","name":"Nope"})", "/types/0/shape/name: expected the name of a type"},
          {R"({"kind":"array"})", "/types/0/shape: expected a member \"items\""},
          {R"({"kind":"union","mode":"allOf","variants":[]})", "/types/0/shape/mode: expected"},
          {R"({"kind":"enum","values":[1],"open_strings":"yes"})",
           "/types/0/shape/open_strings: expected a boolean"},
          {R"({"kind":"object","properties":[{"wire_name":"a","required":true}],"forbidden_property_sets":[],)"
           R"("additional":{"kind":"allowed"}})",
           "/types/0/shape/properties/0: expected a member \"shape\""},
          {R"({"kind":"object","properties":[],"forbidden_property_sets":[[1]],"additional":{"kind":"allowed"}})",
           "/types/0/shape/forbidden_property_sets/0: expected"},
          {R"({"kind":"boundedInteger","minimum":"0"})", "/types/0/shape/minimum: expected a number"},
          {R"([])", "/types/0/shape: expected a shape object"},
      }) {
    auto ir = ir_from_json(layout(bad.shape));
    ASSERT_FALSE(ir.ok()) << bad.shape;
    EXPECT_EQ(ir.error().rfind(bad.error, 0), 0u) << ir.error();
  }
  auto no_root_type = ir_from_json(parse(
      R"({"schemaRevision":"d","protocolVersion":"d","roots":[{"name":"X","schema":"x"}],"types":[]})"));
  ASSERT_FALSE(no_root_type.ok());
  EXPECT_EQ(no_root_type.error(), "/roots/0/name: expected the name of a type");
  EXPECT_FALSE(ir_from_json(parse("[]")).ok());
}

}  // namespace
}  // namespace crosscheck::schema
