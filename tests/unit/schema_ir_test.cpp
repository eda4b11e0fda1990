// schema_ir_test.cpp: IR look-ups, statistics and snake_case naming.
#include <gtest/gtest.h>

#include "schema/ir.hpp"

using namespace crosscheck::schema;

namespace {

ShapePtr make(ShapeKind kind, std::vector<ShapePtr> variants = {}) {
  auto shape = std::make_shared<Shape>();
  shape->kind = kind;
  shape->variants = std::move(variants);
  return shape;
}

TEST(SchemaIr, SnakeCase) {
  EXPECT_EQ(snake_case("InterceptRequest"), "intercept_request");
  EXPECT_EQ(snake_case("JsonRpcMessage"), "json_rpc_message");
  EXPECT_EQ(snake_case("SessionStartEvent"), "session_start_event");
  EXPECT_EQ(snake_case("Capabilities"), "capabilities");
  EXPECT_EQ(snake_case("HTTPTransport"), "http_transport");
  EXPECT_EQ(snake_case("Sha256Digest"), "sha256_digest");
  EXPECT_EQ(snake_case("XYZ"), "xyz");
  EXPECT_EQ(snake_case("Already_Snake"), "already_snake");
}

TEST(SchemaIr, KindNames) {
  EXPECT_STREQ(shape_kind_name(ShapeKind::kAny), "any");
  EXPECT_STREQ(shape_kind_name(ShapeKind::kLiteral), "literal");
  EXPECT_STREQ(shape_kind_name(ShapeKind::kIntersection), "intersection");
  EXPECT_STREQ(shape_kind_name(ShapeKind::kRef), "ref");
}

TEST(SchemaIr, LookupsAndStats) {
  Ir ir;
  auto shared = make(ShapeKind::kString);
  ir.types["Thing"] = NamedType{"Thing", "schema/draft/thing.schema.json#",
                                make(ShapeKind::kUnion, {shared, make(ShapeKind::kNull)})};
  ir.types["Other"] = NamedType{"Other", "schema/draft/thing.schema.json#/$defs/o", shared};  // counted once
  ir.roots.push_back(Root{"thing", "Thing", "schema/draft/thing.schema.json", "", "", {}});
  ASSERT_NE(ir.find_root("thing"), nullptr);
  EXPECT_EQ(ir.find_root("Thing"), ir.find_root("thing"));
  EXPECT_EQ(ir.find_root("other"), nullptr);
  EXPECT_EQ(ir.find_type("Other")->shape, shared);
  EXPECT_EQ(ir.find_type("Nope"), nullptr);
  EXPECT_EQ(ir.root_shape(ir.roots[0])->kind, ShapeKind::kUnion);
  IrStats stats = ir.stats();
  EXPECT_EQ(stats.types, 2u);
  EXPECT_EQ(stats.roots, 1u);
  EXPECT_EQ(stats.nodes, 3u);
  EXPECT_EQ(stats.nodes_by_kind,
            (std::map<std::string, std::size_t>{{"null", 1}, {"string", 1}, {"union", 1}}));
}

}  // namespace
