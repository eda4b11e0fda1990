// Tests of what the decoder promises for ANY input: invalid JSON with a position, nesting beyond
// the limit, reference cycles in the IR, nested unions that would be exponential without the memo,
// bounded diagnostics, random bytes; plus check() on a parsed value and the coverage sink.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "decoder/decoder.hpp"
#include "decoder/detail/schema_index.hpp"
#include "decoder_fixture.hpp"
#include "gen_test_support.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::decoder {
namespace {

using testing::E;
using testing::Expect;

class DecoderRobustness : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    rules_ = new schema::Ir(testing::load_fixture("decoder_rules.ir.json"));
    cycles_ = new schema::Ir(testing::load_fixture("cycles.ir.json"));
  }
  static void TearDownTestSuite() {
    delete rules_;
    delete cycles_;
  }
  static schema::Ir* rules_;
  static schema::Ir* cycles_;
};
schema::Ir* DecoderRobustness::rules_ = nullptr;
schema::Ir* DecoderRobustness::cycles_ = nullptr;

std::string nested_chain(int depth, const std::string& leaf) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += R"({"c":)";
  s += leaf;
  for (int i = 0; i < depth; ++i) s += "}";
  return s;
}

TEST_F(DecoderRobustness, InvalidJsonIsOneErrorWithThePosition) {
  Decoder decoder(*rules_);
  for (std::string bytes :
       {std::string(R"({"a":)"), std::string("{\"a\":1,}"), std::string("[1 2]"), std::string("\xff"),
        std::string(""), std::string("{\"a\":01}"), std::string("NaN")}) {
    DecodeResult r = decoder.decode(testing::root_of(*rules_, "Scalars"), bytes);
    EXPECT_FALSE(r.accepted) << bytes;
    ASSERT_EQ(r.diagnostics.size(), 1u) << bytes;
    EXPECT_EQ(r.diagnostics[0].path, "");
    EXPECT_EQ(r.diagnostics[0].code, "invalid_json");
    EXPECT_EQ(r.diagnostics[0].severity, E);
    auto parsed = json::parse(bytes);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(r.diagnostics[0].message, parsed.error().message());
    EXPECT_NE(r.diagnostics[0].message.find("line 1, column"), std::string::npos) << r.diagnostics[0].message;
    EXPECT_FALSE(r.raw.has_value());
    EXPECT_FALSE(r.encoded.has_value());
  }
}

TEST_F(DecoderRobustness, NestingBeyondTheParseLimitIsInvalidJson) {
  Decoder decoder(*rules_);
  std::string deep = std::string(200000, '[') + std::string(200000, ']');
  DecodeResult r = decoder.decode(testing::root_of(*rules_, "Scalars"), R"({"any":)" + deep + "}");
  EXPECT_FALSE(r.accepted);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].code, "invalid_json");
  EXPECT_EQ(r.diagnostics[0].path, "");
  // Just inside the limit is fine, and the recursive schema follows it all the way down.
  DecodeResult ok = decoder.decode(testing::root_of(*rules_, "Chain"), nested_chain(999, "null"));
  EXPECT_TRUE(ok.accepted);
  EXPECT_TRUE(ok.diagnostics.empty());
}

TEST_F(DecoderRobustness, CheckBoundsTheNestingOfAPrebuiltValue) {
  DecodeOptions options;
  options.limits.max_depth = 10;
  Decoder decoder(*rules_, options);
  json::Value tree = json::Value::object({{"name", json::Value::string("leaf")}});
  for (int i = 0; i < 20; ++i) {
    json::Value parent = json::Value::object({{"name", json::Value::string("n")}});
    parent.add("children", json::Value::array({std::move(tree)}));
    tree = std::move(parent);
  }
  DecodeResult r = decoder.check(testing::root_of(*rules_, "Tree"), tree);
  EXPECT_FALSE(r.accepted);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].code, "invalid_json");
  // Containers at depth 10 and more are refused: the fifth nested object.
  EXPECT_EQ(r.diagnostics[0].path, "/children/0/children/0/children/0/children/0/children/0");
}

TEST_F(DecoderRobustness, NestedUnionsStayPolynomial) {
  // Chain = anyOf[{c: Chain}, {c: Chain, z?}, null]: both object branches recurse into the same
  // member, so trial checking without the memo costs 2^depth.
  Decoder decoder(*rules_);
  auto start = std::chrono::steady_clock::now();
  DecodeResult ok = decoder.decode(testing::root_of(*rules_, "Chain"), nested_chain(400, "null"));
  DecodeResult bad = decoder.decode(testing::root_of(*rules_, "Chain"), nested_chain(400, "\"leaf\""));
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(ok.accepted);
  EXPECT_TRUE(ok.diagnostics.empty());
  EXPECT_FALSE(bad.accepted);
  EXPECT_EQ(testing::triples(bad.diagnostics), (std::vector<Expect>{{"", "no_union_match", E}}));
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 2000);
}

TEST_F(DecoderRobustness, ReferenceCyclesAreErrorsNotHangs) {
  Decoder decoder(*cycles_);
  for (const char* root : {"Loop", "LoopNever", "Fan"}) {
    DecodeResult r = decoder.decode(testing::root_of(*cycles_, root), "1");
    EXPECT_FALSE(r.accepted) << root;
    EXPECT_FALSE(r.diagnostics.empty()) << root;
    EXPECT_LE(r.diagnostics.size(), DecodeOptions{}.max_diagnostics) << root;
  }
  DecodeResult wrapped = decoder.decode(testing::root_of(*cycles_, "Wrap"), R"({"v":1})");
  EXPECT_FALSE(wrapped.accepted);
  ASSERT_FALSE(wrapped.diagnostics.empty());
  EXPECT_EQ(wrapped.diagnostics[0].path, "/v");
  // A cycle inside one union branch fails that branch only.
  DecodeResult branch = decoder.decode(testing::root_of(*cycles_, "LoopUnion"), R"("s")");
  EXPECT_TRUE(branch.accepted);
}

TEST_F(DecoderRobustness, DiagnosticsAreCappedButTheOutcomeIsExact) {
  DecodeOptions options;
  options.max_diagnostics = 50;
  Decoder decoder(*rules_, options);
  std::string many = "[";
  for (int i = 0; i < 1000; ++i) many += std::string(i ? "," : "") + "\"x\"";
  many += "]";
  DecodeResult r = decoder.decode(testing::root_of(*rules_, "Ints"), many);
  EXPECT_FALSE(r.accepted);
  EXPECT_EQ(r.diagnostics.size(), 50u);
  EXPECT_EQ(r.diagnostics[49].path, "/49");
  Decoder uncapped(*rules_);
  EXPECT_EQ(uncapped.decode(testing::root_of(*rules_, "Ints"), many).diagnostics.size(), 1000u);
}

TEST_F(DecoderRobustness, CheckAgreesWithDecode) {
  Decoder decoder(*rules_);
  const auto& root = testing::root_of(*rules_, "Holder");
  std::string text = R"({"ev":{"type":"beta"},"evs":[{"type":"q"},{"type":"alpha"}],"x":{"y":1,"y":2}})";
  auto value = json::parse(text);
  ASSERT_TRUE(value.ok());
  DecodeResult a = decoder.decode(root, text);
  DecodeResult b = decoder.check(root, *value);
  EXPECT_EQ(a.accepted, b.accepted);
  EXPECT_EQ(testing::triples(a.diagnostics), testing::triples(b.diagnostics));
  ASSERT_TRUE(b.raw.has_value());
  EXPECT_EQ(json::write(*b.raw), json::write(*value));
}

TEST_F(DecoderRobustness, EncodedCollapsesDuplicatesAndKeepsEverythingElse) {
  Decoder decoder(*rules_);
  DecodeResult r =
      decoder.decode(testing::root_of(*rules_, "Closed"), R"({"id":1,"zz":[1.50,"\u00e9"],"id":"a"})");
  ASSERT_TRUE(r.accepted);
  ASSERT_TRUE(r.encoded.has_value());
  json::WriteOptions collapse;
  collapse.collapse_duplicates = true;
  EXPECT_EQ(*r.encoded, json::write(*r.raw, collapse));
  EXPECT_EQ(r.encoded->find("\"id\":1"), std::string::npos) << *r.encoded;
  EXPECT_NE(r.encoded->find("1.50"), std::string::npos) << *r.encoded;  // number spelling kept
}

TEST_F(DecoderRobustness, EncodedIsTheWritersTextForPrettyEscapedAndDuplicatedInput) {
  Decoder decoder(*rules_);
  json::WriteOptions collapse;
  collapse.collapse_duplicates = true;
  for (const char* text : {"{\n  \"id\" : \"a b\" ,\n\t\"zz\" : [ 1.50 , \"q\\\"\\n\" ]\r\n}\n",
                           "{ \"id\": \"\\u0041\\/\" }", "{ \"id\": 1, \"id\": \"x\" }"}) {
    DecodeResult r = decoder.decode(testing::root_of(*rules_, "Closed"), text);
    ASSERT_TRUE(r.accepted) << text;
    ASSERT_TRUE(r.raw && r.encoded);
    EXPECT_EQ(*r.encoded, json::write(*r.raw, collapse)) << text;
  }
  DecodeResult pretty = decoder.decode(testing::root_of(*rules_, "Closed"), " { \"id\" : \"a b\" } ");
  ASSERT_TRUE(pretty.encoded);
  EXPECT_EQ(*pretty.encoded, "{\"id\":\"a b\"}");
  DecodeResult escaped = decoder.decode(testing::root_of(*rules_, "Closed"), R"({"id":"\u0041\/"})");
  ASSERT_TRUE(escaped.encoded);
  EXPECT_EQ(*escaped.encoded, R"({"id":"A/"})");
}

/// Ignores every visit: with a sink the check walks every node that decides, without one it stops at
/// an object's first error and an anyOf's first match (checker.hpp); both must answer alike.
struct FullWalkSink : CoverageSink {
  void visit(const schema::Shape&, bool) override {}
};

/// The decode without a sink equals the full walk's: outcome, encoding and every diagnostic in order.
void expect_same_as_full_walk(const Decoder& decoder, const schema::Root& root, const std::string& bytes,
                              const DecodeResult& r) {
  FullWalkSink sink;
  DecodeResult full = decoder.decode(root, bytes, &sink);
  ASSERT_EQ(full.accepted, r.accepted) << bytes;
  ASSERT_EQ(full.encoded, r.encoded) << bytes;
  ASSERT_EQ(full.diagnostics.size(), r.diagnostics.size()) << bytes;
  for (std::size_t i = 0; i < r.diagnostics.size(); ++i) {
    const Diagnostic &a = full.diagnostics[i], &b = r.diagnostics[i];
    ASSERT_EQ(std::tie(a.path, a.code, a.severity, a.message),
              std::tie(b.path, b.code, b.severity, b.message))
        << bytes;
  }
}

/// Every decode, for any bytes: no throw, acceptance iff no error, accepted values round-trip, and
/// the same answer as the full walk.
void check_invariants(const Decoder& decoder, const schema::Root& root, const std::string& bytes) {
  DecodeResult r;
  ASSERT_NO_THROW(r = decoder.decode(root, bytes));
  expect_same_as_full_walk(decoder, root, bytes, r);
  if (::testing::Test::HasFatalFailure()) return;
  bool any_error = false;
  for (const auto& d : r.diagnostics) any_error = any_error || d.severity == E;
  ASSERT_EQ(r.accepted, !any_error) << bytes;
  if (r.accepted) {
    ASSERT_TRUE(r.raw && r.encoded);
    // The text is the writer's for the tree, whether the decoder wrote it or took json::parse's.
    json::WriteOptions collapse;
    collapse.collapse_duplicates = true;
    ASSERT_EQ(*r.encoded, json::write(*r.raw, collapse)) << bytes;
    auto again = json::parse(*r.encoded);
    ASSERT_TRUE(again.ok()) << *r.encoded;
    ASSERT_TRUE(json::semantically_equal(*again, *r.raw)) << bytes;
  }
}

TEST_F(DecoderRobustness, RandomAndMutatedBytesKeepTheInvariants) {
  Decoder decoder(*rules_);
  std::mt19937 rng(20261129);
  const std::vector<std::string> seeds = {
      R"({"ev":{"type":"alpha","x":"s"},"evs":[{"type":"gamma","y":true},{"type":"q"}]})",
      R"({"type":"beta","extra":{"k":[1,2.5e3,null,"\u00e9"]}})",
      nested_chain(30, "null"),
      R"({"candidate":{"value":{"a":[true,false]}}})",
      R"({"i":9007199254740991,"count":0,"pct":50})",
  };
  const std::string alphabet = "{}[]\":,0123456789.eE-+tfnul\\ \"abcxyz\x80\xff";
  std::vector<std::string> roots;
  for (const auto& root : rules_->roots) roots.push_back(root.public_name);
  for (int i = 0; i < 3000; ++i) {
    std::string bytes = seeds[rng() % seeds.size()];
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits && !bytes.empty(); ++k) {
      std::size_t at = rng() % bytes.size();
      switch (rng() % 3) {
        case 0:
          bytes[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          bytes.erase(at, 1 + rng() % 3);
          break;
        default:
          bytes.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
      }
    }
    check_invariants(decoder, testing::root_of(*rules_, roots[rng() % roots.size()]), bytes);
    if (HasFatalFailure()) return;
  }
}

TEST_F(DecoderRobustness, OnlyACompositeCycleTurnsStoppingEarlyOff) {
  EXPECT_TRUE(detail::SchemaIndex(*rules_).cycle_free());
  EXPECT_FALSE(detail::SchemaIndex(*cycles_).cycle_free());
  // Where the schema has a cycle the checker walks fully: the answers with and without a sink agree
  // there too (a pair met in progress is an error whichever way the walk went).
  Decoder decoder(*cycles_);
  for (const auto& root : cycles_->roots) {
    for (const char* text : {"1", R"({"v":1})", R"("s")", "[]", "null"}) {
      check_invariants(decoder, root, text);
      if (HasFatalFailure()) return;
    }
  }
}

/// Every value in `value`'s tree, parents before children.
void collect_values(json::Value& value, std::vector<json::Value*>& out) {
  out.push_back(&value);
  if (value.is_array()) {
    for (auto& item : value.items()) collect_values(item, out);
  } else if (value.is_object()) {
    for (auto& member : value.members()) collect_values(member.value, out);
  }
}

TEST(DecoderRealSchema, StoppingEarlyAnswersAsTheFullWalkOnTheCorpusAndItsMutations) {
  ASSERT_NE(gen::testing::real_schema().ir, nullptr) << gen::testing::real_schema().error;
  const schema::Ir& ir = *gen::testing::real_schema().ir;
  ASSERT_TRUE(detail::SchemaIndex(ir).cycle_free());  // else this test compares the full walk with itself
  Decoder decoder(ir);
  // Each example decoded as its own root, then with one value replaced by each of a few others, or
  // one member dropped: union variants and objects that fail part-way, over the real types.
  const std::vector<json::Value> replacements = {json::Value::null(),         json::Value::number("1"),
                                                 json::Value::number("-2.5"), json::Value::string("x"),
                                                 json::Value::boolean(true),  json::Value::object(),
                                                 json::Value::array()};
  std::size_t decoded = 0, accepted = 0, rejected = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(CROSSCHECK_SOURCE_DIR) + "/corpus/examples")) {
    const std::string name = entry.path().filename().string();
    const schema::Root* root = ir.find_root(name.substr(0, name.find('.')));
    ASSERT_NE(root, nullptr) << name;
    const std::string text = testing::read_file(entry.path().string());
    auto parsed = json::parse(text);
    ASSERT_TRUE(parsed.ok()) << name;
    std::vector<json::Value*> nodes;
    json::Value original = parsed.value();
    collect_values(original, nodes);
    auto decode = [&](const std::string& bytes) {
      DecodeResult r = decoder.decode(*root, bytes);
      expect_same_as_full_walk(decoder, *root, bytes, r);
      ++decoded;
      (r.accepted ? accepted : rejected) += 1;
    };
    // The example's text with `edit` applied to its value number `at` (parents before children).
    auto decode_edited = [&](std::size_t at, auto&& edit) {
      json::Value copy = original;
      std::vector<json::Value*> copy_nodes;
      collect_values(copy, copy_nodes);
      edit(*copy_nodes[at]);
      decode(json::write(copy));
    };
    decode(text);
    for (std::size_t at = 0; at < nodes.size(); ++at) {
      for (const auto& replacement : replacements) {
        decode_edited(at, [&](json::Value& v) { v = replacement; });
        if (HasFatalFailure()) return;
      }
      for (std::size_t m = 0; nodes[at]->is_object() && m < nodes[at]->members().size(); ++m) {
        decode_edited(at, [&](json::Value& v) {
          v.members().erase(v.members().begin() + static_cast<std::ptrdiff_t>(m));
        });
        if (HasFatalFailure()) return;
      }
    }
  }
  // Both outcomes in numbers, so the comparison above covered early stops and full walks alike.
  EXPECT_GT(decoded, 500u);
  EXPECT_GT(accepted, 100u);
  EXPECT_GT(rejected, 100u);
}

struct RecordingSink : CoverageSink {
  std::map<std::uint32_t, std::set<bool>> seen;
  void visit(const schema::Shape& node, bool matched) override { seen[node.id].insert(matched); }
};

TEST_F(DecoderRobustness, CoverageSeesOutcomeDecidingNodes) {
  Decoder decoder(*rules_);
  const schema::Shape& any_of = *rules_->find_type("AnyOf")->shape;
  RecordingSink sink;
  decoder.decode(testing::root_of(*rules_, "AnyOf"), R"({"kind":"x","id":"s"})", &sink);
  EXPECT_EQ(sink.seen[any_of.id], (std::set<bool>{true}));
  EXPECT_EQ(sink.seen[any_of.variants[0]->id], (std::set<bool>{true}));
  EXPECT_EQ(sink.seen[any_of.variants[1]->id], (std::set<bool>{true}));
  decoder.decode(testing::root_of(*rules_, "AnyOf"), R"({"kind":"y"})", &sink);
  EXPECT_EQ(sink.seen[any_of.id], (std::set<bool>{true, false}));
  const schema::Shape& kind_literal = *any_of.variants[0]->properties[0].shape;
  EXPECT_EQ(sink.seen[kind_literal.id], (std::set<bool>{true, false}));

  const schema::Shape& role = *rules_->find_type("Enums")->shape->properties[1].shape;
  ASSERT_EQ(role.kind, schema::ShapeKind::kEnum);
  RecordingSink enums;
  decoder.decode(testing::root_of(*rules_, "Enums"), R"({"role":"admin"})", &enums);
  EXPECT_EQ(enums.seen[role.id], (std::set<bool>{false}));  // an unknown value is not a match
  EXPECT_EQ(enums.seen.count(rules_->find_type("Enums")->shape->id),
            0u);  // no required member, no forbidden set

  RecordingSink nothing;
  decoder.decode(testing::root_of(*rules_, "AnyOf"), "{", &nothing);  // not JSON: nothing visited
  EXPECT_TRUE(nothing.seen.empty());
}

}  // namespace
}  // namespace crosscheck::decoder
