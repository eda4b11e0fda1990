// gen_value_generator_test.cpp: ValueGenerator on the real schema bundle (every root accepted
// clean, union arms and enum values reached, optional members both ways, bounds, depth,
// determinism) and on small hand-written IRs (exact oneOf, constrained unions, forbidden sets,
// recursion, unsatisfiable roots).
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <map>
#include <set>
#include <unordered_set>

#include "decoder/decoder.hpp"
#include "gen/generator.hpp"
#include "gen/shape_facts.hpp"
#include "gen/shape_walk.hpp"
#include "gen_test_support.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "schema/ir_json.hpp"

namespace crosscheck::gen {
namespace {

using schema::Shape;
using schema::ShapeKind;

class GenReal : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
    ir_ = testing::real_schema().ir.get();
  }
  const schema::Ir* ir_ = nullptr;
};

std::size_t nesting(const json::Value& v) {
  std::size_t inner = 0;
  if (v.is_array()) {
    for (const auto& item : v.items()) inner = std::max(inner, nesting(item));
    return inner + 1;
  }
  if (v.is_object()) {
    for (const auto& m : v.members()) inner = std::max(inner, nesting(m.value));
    return inner + 1;
  }
  return 0;
}

TEST_F(GenReal, EveryInstanceOfEveryRootIsAcceptedClean) {
  // 200 seeds x every root: the decoder accepts each instance with no diagnostic at all.
  ValueGenerator generator(*ir_);
  decoder::Decoder decoder(*ir_);
  constexpr std::uint64_t kSeeds = 200;
  std::size_t instances = 0, fallbacks = 0, retried = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& root : ir_->roots) {
    for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
      GenReport report;
      const json::Value value = generator.valid(root, seed, &report);
      ++instances;
      fallbacks += report.fallback;
      retried += report.attempts > 1;
      EXPECT_TRUE(report.accepted) << root.snake_name << " seed " << seed;
      // Through the bytes, as an SDK would see them.
      const std::string bytes = json::write(value);
      const decoder::DecodeResult result = decoder.decode(root, bytes);
      ASSERT_TRUE(result.accepted && result.diagnostics.empty())
          << root.snake_name << " seed " << seed << ": " << bytes << "\nfirst diagnostic: "
          << (result.diagnostics.empty() ? ""
                                         : result.diagnostics[0].path + " " + result.diagnostics[0].code);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[gen] " << instances << " instances of " << ir_->roots.size() << " roots in " << seconds
            << " s; retried roots: " << retried << ", minimal fallbacks: " << fallbacks << "\n";
  EXPECT_EQ(ir_->roots.size(), 31u);
  // Fallbacks are legal but mean a random draw failed 8 times: keep them rare.
  EXPECT_LE(fallbacks * 200, instances) << "more than 0.5% of instances fell back to a minimal instance";
}

TEST_F(GenReal, DeterministicForASeedAndVariedAcrossSeeds) {
  ValueGenerator a(*ir_), b(*ir_);
  for (const auto& root : ir_->roots) {
    std::set<std::string> distinct;
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      const std::string first = json::write(a.valid(root, seed));
      EXPECT_EQ(first, json::write(a.valid(root, seed))) << root.snake_name << " seed " << seed;
      EXPECT_EQ(first, json::write(b.valid(root, seed))) << root.snake_name << " seed " << seed;
      distinct.insert(first);
    }
    EXPECT_GE(distinct.size(), 2u) << root.snake_name << ": 20 seeds gave one value";
  }
}

/// Union arms and enum values a clean instance can take: from the roots, through satisfiable arms
/// only, and never through a tagged union's arm that has no literal tag (an extension fallback:
/// only an unknown tag reaches it, and that warns).
struct CleanReach {
  std::set<std::pair<const Shape*, std::size_t>> arms, enum_values;
};

CleanReach clean_reach(const schema::Ir& ir, const ShapeFacts& facts) {
  CleanReach out;
  std::unordered_set<const Shape*> seen;
  std::vector<const Shape*> stack;
  for (const auto& root : ir.roots) stack.push_back(ir.root_shape(root).get());
  while (!stack.empty()) {
    const Shape* s = stack.back();
    stack.pop_back();
    if (!s || !facts.satisfiable(*s) || !seen.insert(s).second) continue;
    switch (s->kind) {
      case ShapeKind::kRef:
        stack.push_back(facts.target(*s));
        break;
      case ShapeKind::kUnion: {
        const auto& tags = facts.tags(*s);
        for (std::size_t i = 0; i < s->variants.size(); ++i) {
          if (!facts.satisfiable(*s->variants[i])) continue;
          if (s->discriminator && (i >= tags.size() || !tags[i])) continue;
          out.arms.insert({s, i});
          stack.push_back(s->variants[i].get());
        }
        break;
      }
      case ShapeKind::kEnum:
        for (std::size_t i = 0; i < s->enum_values.size(); ++i) out.enum_values.insert({s, i});
        break;
      default:
        for (const auto& p : s->properties) stack.push_back(p.shape.get());
        if (s->items) stack.push_back(s->items.get());
        if (s->additional_shape) stack.push_back(s->additional_shape.get());
        for (const auto& v : s->variants) stack.push_back(v.get());
    }
  }
  return out;
}

TEST_F(GenReal, ReachesUnionArmsAndEnumValues) {
  // Over 300 seeds per root, the instances (walked with the decoder's own arm selection) take
  // nearly every union arm and every enum value a clean instance can take. Measured: 100% of
  // arms and values. The bound leaves room for a schema revision that adds an arm deeper than
  // max_depth, while a generator that stops reaching a whole family of arms fails.
  ShapeFacts facts(*ir_);
  ValueGenerator generator(*ir_);
  const CleanReach possible = clean_reach(*ir_, facts);
  CleanReach reached;
  for (const auto& root : ir_->roots) {
    const Shape& shape = *ir_->root_shape(root);
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
      const json::Value value = generator.valid(root, seed);
      for (const WalkNode& node : walk(facts, shape, value)) {
        for (const auto& t : node.tagged) {
          if (t.selected >= 0) reached.arms.insert({t.node, static_cast<std::size_t>(t.selected)});
        }
        for (const auto& u : node.untagged) {
          for (std::size_t i : u.matched) reached.arms.insert({u.node, i});
        }
        for (const Shape* e : node.enums) {
          for (std::size_t i = 0; i < e->enum_values.size(); ++i) {
            if (json::semantically_equal(e->enum_values[i], *node.value)) reached.enum_values.insert({e, i});
          }
        }
      }
    }
  }
  std::size_t arms = 0, values = 0;
  for (const auto& arm : possible.arms) {
    if (reached.arms.count(arm)) {
      ++arms;
    } else {
      std::cout << "[gen] arm not reached: " << arm.first->source << " #" << arm.second << "\n";
    }
  }
  for (const auto& v : possible.enum_values) {
    if (reached.enum_values.count(v)) {
      ++values;
    } else {
      std::cout << "[gen] enum value not reached: " << v.first->source << " "
                << json::write(v.first->enum_values[v.second]) << "\n";
    }
  }
  std::cout << "[gen] union arms reached " << arms << "/" << possible.arms.size() << ", enum values "
            << values << "/" << possible.enum_values.size() << "\n";
  ASSERT_GT(possible.arms.size(), 100u);
  ASSERT_GT(possible.enum_values.size(), 100u);
  EXPECT_GE(arms * 100, possible.arms.size() * 98);
  EXPECT_GE(values * 100, possible.enum_values.size() * 98);
}

TEST_F(GenReal, OptionalMembersBothWaysBoundsAndUnknownMembers) {
  ShapeFacts facts(*ir_);
  ValueGenerator generator(*ir_);
  std::map<std::pair<const Shape*, std::string>, std::pair<int, int>> optional;  // (present, absent)
  std::size_t instances = 0, with_unknown = 0, integer_slots = 0;
  for (const auto& root : ir_->roots) {
    const Shape& shape = *ir_->root_shape(root);
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
      const json::Value value = generator.valid(root, seed);
      ++instances;
      bool unknown = false;
      for (const WalkNode& node : walk(facts, shape, value)) {
        for (const Shape* o : node.objects) {
          for (const auto& p : o->properties) {
            if (p.required) continue;
            auto& counts = optional[{o, p.wire_name}];
            (node.value->contains(p.wire_name) ? counts.first : counts.second)++;
          }
          for (const auto& m : node.value->members()) {
            const bool declared = std::any_of(o->properties.begin(), o->properties.end(),
                                              [&](const auto& p) { return p.wire_name == m.key; });
            unknown = unknown || (!declared && !o->additional_shape);
          }
        }
        for (const Shape* s : node.integers) {
          ++integer_slots;
          const std::string& n = node.value->number_text();
          EXPECT_TRUE(json::is_safe_integer(n)) << node.pointer << " = " << n;
          if (s->minimum) {
            EXPECT_GE(json::compare_numbers(n, *s->minimum), 0) << node.pointer << " = " << n;
          }
          if (s->maximum) {
            EXPECT_LE(json::compare_numbers(n, *s->maximum), 0) << node.pointer << " = " << n;
          }
        }
      }
      with_unknown += unknown;
    }
  }
  std::size_t both = 0;
  for (const auto& [key, counts] : optional) both += counts.first > 0 && counts.second > 0;
  std::cout << "[gen] optional members seen present and absent: " << both << "/" << optional.size()
            << "; instances with unknown members: " << with_unknown << "/" << instances
            << "; integer slots checked: " << integer_slots << "\n";
  ASSERT_GT(optional.size(), 100u);
  EXPECT_GE(both * 100, optional.size() * 90);
  EXPECT_GT(integer_slots, 100u);
  EXPECT_GT(with_unknown * 100, instances * 5);   // sometimes ...
  EXPECT_LT(with_unknown * 100, instances * 90);  // ... not always
}

TEST_F(GenReal, MaxDepthBoundsNesting) {
  // At the limit the generator takes the least deep arm, leaves optional members out and arrays
  // empty, so nesting stays within max_depth unless the root itself needs more.
  ShapeFacts facts(*ir_);
  for (std::size_t max_depth : {2u, 4u}) {
    GenOptions options;
    options.max_depth = max_depth;
    ValueGenerator generator(*ir_, options);
    decoder::Decoder decoder(*ir_);
    for (const auto& root : ir_->roots) {
      const std::size_t floor = facts.min_depth(*ir_->root_shape(root));
      for (std::uint64_t seed = 0; seed < 30; ++seed) {
        const json::Value value = generator.valid(root, seed);
        EXPECT_TRUE(decoder.check(root, value).accepted) << root.snake_name;
        EXPECT_LE(nesting(value), std::max(max_depth, floor))
            << root.snake_name << " seed " << seed << " max_depth " << max_depth << ": "
            << json::write(value);
      }
    }
  }
}

// --- hand-written IRs -------------------------------------------------------------------------

schema::Ir ir_from(const std::string& text) {
  auto parsed = json::parse(text);
  if (!parsed.ok()) throw std::runtime_error(parsed.error().message());
  auto ir = schema::ir_from_json(parsed.value());
  if (!ir.ok()) throw std::runtime_error(ir.error());
  return std::move(ir).value();
}

const schema::Root& root_named(const schema::Ir& ir, const std::string& name) {
  const schema::Root* root = ir.find_root(name);
  if (!root) throw std::runtime_error("no root " + name);
  return *root;
}

const char* const kSmallIr = R"({"schemaRevision":"t","protocolVersion":"t",
 "roots":[{"name":"Exact","schema":"t"},{"name":"Holder","schema":"t"},{"name":"Pair","schema":"t"},
          {"name":"Tree","schema":"t"},{"name":"Impossible","schema":"t"}],
 "types":[
  {"name":"Exact","source":"t","shape":{"kind":"union","mode":"oneOf","variants":[
     {"kind":"string"},{"kind":"enum","values":["a","b"],"open_strings":false},{"kind":"integer"}]}},
  {"name":"Ev","source":"t","shape":{"kind":"union","mode":"oneOf","discriminator":"type","variants":[
     {"kind":"ref","name":"A"},{"kind":"ref","name":"B"},{"kind":"ref","name":"C"}]}},
  {"name":"A","source":"t","shape":{"kind":"object","properties":[
     {"wire_name":"type","required":true,"shape":{"kind":"literal","value":"a"}},
     {"wire_name":"n","required":true,"shape":{"kind":"boundedInteger","minimum":1,"maximum":3}}],
     "forbidden_property_sets":[],"additional":{"kind":"forbidden"}}},
  {"name":"B","source":"t","shape":{"kind":"object","properties":[
     {"wire_name":"type","required":true,"shape":{"kind":"literal","value":"b"}}],
     "forbidden_property_sets":[],"additional":{"kind":"allowed"}}},
  {"name":"C","source":"t","shape":{"kind":"object","properties":[
     {"wire_name":"type","required":true,"shape":{"kind":"literal","value":"c"}}],
     "forbidden_property_sets":[],"additional":{"kind":"allowed"}}},
  {"name":"Holder","source":"t","shape":{"kind":"object","properties":[
     {"wire_name":"ev","required":true,"shape":{"kind":"intersection","variants":[{"kind":"ref","name":"Ev"},
       {"kind":"union","mode":"oneOf","discriminator":"type","variants":[{"kind":"ref","name":"A"},
         {"kind":"intersection","variants":[{"kind":"ref","name":"B"},{"kind":"never"}]},
         {"kind":"intersection","variants":[{"kind":"ref","name":"C"},{"kind":"never"}]}]}]}}],
     "forbidden_property_sets":[],"additional":{"kind":"allowed"}}},
  {"name":"Pair","source":"t","shape":{"kind":"object","properties":[
     {"wire_name":"x","required":false,"shape":{"kind":"string"}},
     {"wire_name":"y","required":false,"shape":{"kind":"null"}}],
     "forbidden_property_sets":[["x","y"]],"additional":{"kind":"allowed"}}},
  {"name":"Tree","source":"t","shape":{"kind":"object","properties":[
     {"wire_name":"kids","required":false,"shape":{"kind":"array","items":{"kind":"ref","name":"Tree"}}},
     {"wire_name":"next","required":true,"shape":{"kind":"union","mode":"anyOf","variants":[
        {"kind":"ref","name":"Tree"},{"kind":"null"}]}}],
     "forbidden_property_sets":[],"additional":{"kind":"allowed"}}},
  {"name":"Impossible","source":"t","shape":{"kind":"intersection","variants":[{"kind":"string"},{"kind":"integer"}]}}
 ]})";

TEST(GenSmallIr, ExactOneOfNeverAmbiguous) {
  // "a" and "b" match both the string and the enum arm of a oneOf: the generator must never
  // return them (ambiguous_union), though it picks the enum arm as often as the others.
  const schema::Ir ir = ir_from(kSmallIr);
  ValueGenerator generator(ir);
  decoder::Decoder decoder(ir);
  std::set<json::Kind> kinds;
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    GenReport report;
    const json::Value v = generator.valid(root_named(ir, "Exact"), seed, &report);
    const auto result = decoder.check(root_named(ir, "Exact"), v);
    ASSERT_TRUE(result.accepted && result.diagnostics.empty()) << json::write(v);
    ASSERT_FALSE(v.is_string() && (v.string_value() == "a" || v.string_value() == "b"));
    EXPECT_FALSE(report.fallback);
    kinds.insert(v.kind());
  }
  EXPECT_EQ(kinds, (std::set<json::Kind>{json::Kind::kString, json::Kind::kNumber}));
}

TEST(GenSmallIr, ConstrainedUnionTakesOnlyTheAllowedTagWithinBounds) {
  const schema::Ir ir = ir_from(kSmallIr);
  ValueGenerator generator(ir);
  decoder::Decoder decoder(ir);
  std::set<std::string> ns;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    GenReport report;
    const json::Value v = generator.valid(root_named(ir, "Holder"), seed, &report);
    ASSERT_TRUE(decoder.check(root_named(ir, "Holder"), v).accepted) << json::write(v);
    EXPECT_EQ(report.attempts, 1u) << "the shared tag should be found without retries";
    const json::Value* ev = v.find("ev");
    ASSERT_NE(ev, nullptr);
    EXPECT_EQ(ev->find("type")->string_value(), "a");
    ns.insert(ev->find("n")->number_text());
  }
  EXPECT_EQ(ns, (std::set<std::string>{"1", "2", "3"}));
}

TEST(GenSmallIr, ForbiddenSetNeverComplete) {
  const schema::Ir ir = ir_from(kSmallIr);
  ValueGenerator generator(ir);
  int x = 0, y = 0;
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const json::Value v = generator.valid(root_named(ir, "Pair"), seed);
    ASSERT_FALSE(v.contains("x") && v.contains("y")) << json::write(v);
    x += v.contains("x");
    y += v.contains("y");
  }
  EXPECT_GT(x, 30);
  EXPECT_GT(y, 30);
}

TEST(GenSmallIr, RecursionStopsAtMaxDepth) {
  const schema::Ir ir = ir_from(kSmallIr);
  decoder::Decoder decoder(ir);
  for (std::size_t max_depth : {1u, 3u, 6u}) {
    GenOptions options;
    options.max_depth = max_depth;
    ValueGenerator generator(ir, options);
    std::size_t deepest = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
      const json::Value v = generator.valid(root_named(ir, "Tree"), seed);
      ASSERT_TRUE(decoder.check(root_named(ir, "Tree"), v).accepted) << json::write(v);
      deepest = std::max(deepest, nesting(v));
    }
    EXPECT_LE(deepest, max_depth);
    EXPECT_GE(deepest, std::min<std::size_t>(max_depth, 3)) << "recursion should be explored";
  }
}

TEST(GenSmallIr, UnsatisfiableRootIsReportedNotHidden) {
  const schema::Ir ir = ir_from(kSmallIr);
  ValueGenerator generator(ir);
  GenReport report;
  generator.valid(root_named(ir, "Impossible"), 7, &report);
  EXPECT_TRUE(report.fallback);
  EXPECT_FALSE(report.accepted);
}

}  // namespace
}  // namespace crosscheck::gen
