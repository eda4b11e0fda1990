// Tests of the decoder's subtree API (check_subtree, SubtreeChecker, ref_target, variant_tags), the
// part of decoder.hpp that the generators and schema coverage use, on tests/data/ir/decoder_rules.ir.json:
// the status agrees with the full decode, holds for nodes below a root, and one SubtreeChecker gives
// the same answers as fresh checks over one value tree.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "decoder/decoder.hpp"
#include "decoder_fixture.hpp"
#include "json/parse.hpp"

namespace crosscheck::decoder {
namespace {

class DecoderSubtree : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ir_ = new schema::Ir(testing::load_fixture("decoder_rules.ir.json")); }
  static void TearDownTestSuite() {
    delete ir_;
    ir_ = nullptr;
  }
  static const schema::Shape& type_shape(const std::string& name) { return *ir_->types.at(name).shape; }
  static json::Value parse(const std::string& text) {
    auto parsed = json::parse(text);
    if (!parsed.ok()) throw std::runtime_error(text + ": " + parsed.error().message());
    return std::move(parsed).value();
  }
  static schema::Ir* ir_;
};
schema::Ir* DecoderSubtree::ir_ = nullptr;

TEST_F(DecoderSubtree, StatusOfARootShapeAgreesWithTheDecode) {
  Decoder decoder(*ir_);
  struct Case {
    const char* root;
    const char* input;
    CheckStatus status;
  };
  const std::vector<Case> cases = {
      {"Event", R"({"type":"alpha","x":"s"})", CheckStatus::kClean},
      {"Event", R"({"type":"zeta","anything":[1,2]})", CheckStatus::kWarning},
      {"Event", R"({"type":1})", CheckStatus::kError},
      {"Holder", R"({"ev":{"type":"beta"},"evs":[{"type":"q"}]})", CheckStatus::kWarning},
      {"Holder", R"({"ev":{"type":"alpha"}})", CheckStatus::kError},
      {"Holder", R"({"ev":{"type":"gamma","y":true}})", CheckStatus::kClean},
  };
  for (const auto& c : cases) {
    const json::Value value = parse(c.input);
    const CheckStatus status = decoder.check_subtree(type_shape(c.root), value);
    EXPECT_EQ(status, c.status) << c.root << " " << c.input;
    const DecodeResult full = decoder.check(testing::root_of(*ir_, c.root), value);
    EXPECT_EQ(status == CheckStatus::kError, !full.accepted) << c.input;
    EXPECT_EQ(status == CheckStatus::kWarning, full.accepted && full.has_warning()) << c.input;
  }
}

TEST_F(DecoderSubtree, ChecksANodeBelowARoot) {
  Decoder decoder(*ir_);
  // Holder.ev is a ref node inside an object property, not a root of its own.
  const schema::Shape& ev = *type_shape("Holder").properties.at(0).shape;
  ASSERT_EQ(ev.kind, schema::ShapeKind::kRef);
  EXPECT_EQ(decoder.check_subtree(ev, parse(R"({"type":"alpha","x":"s"})")), CheckStatus::kClean);
  EXPECT_EQ(decoder.check_subtree(ev, parse(R"({"type":"zeta"})")), CheckStatus::kWarning);
  EXPECT_EQ(decoder.check_subtree(ev, parse(R"({"type":1})")), CheckStatus::kError);
  // The array property's item shape: one element at a time.
  const schema::Shape& evs = *type_shape("Holder").properties.at(1).shape;
  ASSERT_EQ(evs.kind, schema::ShapeKind::kArray);
  EXPECT_EQ(decoder.check_subtree(*evs.items, parse(R"({"type":"q"})")), CheckStatus::kWarning);
  EXPECT_EQ(decoder.check_subtree(evs, parse(R"([{"type":"beta"},[]])")), CheckStatus::kError);
}

TEST_F(DecoderSubtree, OneSubtreeCheckerAnswersAsFreshChecks) {
  Decoder decoder(*ir_);
  const json::Value tree = parse(R"({"ev":{"type":"gamma","y":true},"evs":[{"type":"alpha"},{"type":"q"}]})");
  const std::vector<const schema::Shape*> shapes = {&type_shape("Holder"), &type_shape("Event"),
                                                    &type_shape("Alpha"),  &type_shape("Beta"),
                                                    &type_shape("Gamma"),  &type_shape("Enums")};
  std::vector<const json::Value*> values = {&tree, tree.find("ev"), tree.find("evs")};
  for (const auto& element : tree.find("evs")->items()) values.push_back(&element);
  SubtreeChecker checker(decoder);
  int errors = 0;
  for (int round = 0; round < 2; ++round) {  // the second round answers from the shared memo
    for (const schema::Shape* shape : shapes) {
      for (const json::Value* value : values) {
        const CheckStatus fresh = decoder.check_subtree(*shape, *value);
        EXPECT_EQ(checker.check(*shape, *value), fresh);
        errors += fresh == CheckStatus::kError;
      }
    }
  }
  EXPECT_GT(errors, 0);  // the pairs are not all trivially clean
}

TEST_F(DecoderSubtree, RefTargetsAndVariantTagsAreTheChecksOwn) {
  Decoder decoder(*ir_);
  const schema::Shape& ev = *type_shape("Holder").properties.at(0).shape;
  EXPECT_EQ(decoder.ref_target(ev), &type_shape("Event"));
  EXPECT_EQ(decoder.ref_target(type_shape("Holder")), nullptr);  // not a ref node

  const auto& tags = decoder.variant_tags(type_shape("Event"));
  ASSERT_EQ(tags.size(), 3u);
  std::vector<std::string> names;
  for (const std::string* tag : tags) names.push_back(tag ? *tag : "<none>");
  // gamma's tag is found through an intersection, as the SDKs find it.
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "beta", "gamma"}));
  EXPECT_TRUE(decoder.variant_tags(type_shape("Alpha")).empty());  // not a union
}

}  // namespace
}  // namespace crosscheck::decoder
