// Tests of the layer-2 comparison: valid against invalid, error paths alone, the validate op's own
// failures, implementation-defined traits, the cross-layer check, and signatures apart from layer 1.
#include <gtest/gtest.h>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "exec/reference_validation.hpp"
#include "json/parse.hpp"
#include "layers/canonical/canonical_comparator.hpp"
#include "layers/structural/comparator.hpp"
#include "schema/ir.hpp"

namespace crosscheck::layers::canonical {

using core::Diag;
using core::DivergenceClass;
using core::ImplResult;
using core::kCanonicalLayer;
using core::kStructuralLayer;
using core::Outcome;
using core::ValidateResult;
using core::Verdict;
using layers::structural::compare;

namespace {

ValidateResult verdict(std::string impl, Verdict v, std::vector<std::string> paths = {},
                       std::vector<std::string> keywords = {}, std::vector<std::string> traits = {}) {
  ValidateResult r;
  r.implementation = std::move(impl);
  r.verdict = v;
  r.error_paths = std::move(paths);
  r.error_keywords = std::move(keywords);
  r.implementation_defined = std::move(traits);
  if (v == Verdict::kInvalid) r.message = "'x' is not a 'date-time'";
  return r;
}

ImplResult decoded(std::string impl, Outcome outcome, std::vector<Diag> diags = {}) {
  ImplResult r;
  r.implementation = std::move(impl);
  r.outcome = outcome;
  r.diagnostics = std::move(diags);
  return r;
}

const char* kInput = R"({"at": "2026-01-01T00:00:00Z"})";

TEST(CanonicalComparator, ValidAgainstInvalidIsCanonicalAcceptance) {
  auto ds =
      compare_canonical(kInput,
                        {verdict("cpp", Verdict::kInvalid, {"/at"}, {"format"}),
                         verdict("python", Verdict::kValid), verdict("rust", Verdict::kInvalid, {"/at"})},
                        {});
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].cls, DivergenceClass::kCanonicalAcceptance);
  EXPECT_EQ(ds[0].layer, kCanonicalLayer);
  EXPECT_EQ(ds[0].implementations, (std::vector<std::string>{"cpp", "python", "rust"}));
  EXPECT_FALSE(ds[0].implementation_defined);
  EXPECT_EQ(ds[0].signature, "canonical|canonical-acceptance|cpp=invalid,python=valid,rust=invalid|format|");
  EXPECT_EQ(ds[0].bucket.size(), 16u);
  EXPECT_NE(ds[0].detail.find("valid for python"), std::string::npos) << ds[0].detail;
  EXPECT_NE(ds[0].detail.find("cpp at '/at'"), std::string::npos) << ds[0].detail;
}

TEST(CanonicalComparator, ErrorPathsAloneAreNoDivergence) {
  // Both invalid, different first errors: engines differ there by design.
  auto ds = compare_canonical(kInput,
                              {verdict("cpp", Verdict::kInvalid, {"/at"}, {"format"}),
                               verdict("python", Verdict::kInvalid, {"", "/other/0"})},
                              {});
  EXPECT_TRUE(ds.empty()) << ds.front().detail;
  ds = compare_canonical(kInput, {verdict("cpp", Verdict::kValid), verdict("python", Verdict::kValid)}, {});
  EXPECT_TRUE(ds.empty());
}

TEST(CanonicalComparator, UnsupportedIsLeftOut) {
  auto ds = compare_canonical(kInput,
                              {verdict("cpp", Verdict::kValid), verdict("go", Verdict::kUnsupported),
                               verdict("rust", Verdict::kValid)},
                              {});
  EXPECT_TRUE(ds.empty());
  EXPECT_EQ(verdict_tuple({verdict("cpp", Verdict::kValid), verdict("go", Verdict::kUnsupported)}),
            "cpp=valid");
}

TEST(CanonicalComparator, OwnFailuresOfTheValidateOp) {
  ValidateResult crash = verdict("python", Verdict::kCrash);
  crash.message = "exit 1";
  ValidateResult error = verdict("rust", Verdict::kError);
  error.message = "panic";
  auto ds = compare_canonical(kInput,
                              {verdict("cpp", Verdict::kValid), crash, error,
                               verdict("go", Verdict::kTimeout), verdict("ts", Verdict::kProtocol)},
                              {});
  ASSERT_EQ(ds.size(), 4u);
  EXPECT_EQ(ds[0].cls, DivergenceClass::kCrash);
  EXPECT_EQ(ds[0].implementations, std::vector<std::string>{"python"});
  EXPECT_EQ(ds[0].signature, "canonical|crash|python||");
  EXPECT_EQ(ds[1].cls, DivergenceClass::kSdkError);
  EXPECT_EQ(ds[2].cls, DivergenceClass::kTimeout);
  EXPECT_EQ(ds[3].cls, DivergenceClass::kProtocol);
  for (const auto& d : ds) EXPECT_EQ(d.layer, kCanonicalLayer);
}

TEST(CanonicalComparator, ReferenceTraitsMakeItImplementationDefined) {
  auto ds = compare_canonical(R"({"at": "1998-12-31T23:59:60Z"})",
                              {verdict("cpp", Verdict::kValid, {}, {}, {"date-time-leap-second"}),
                               verdict("python", Verdict::kInvalid, {"/at"})},
                              {});
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].cls, DivergenceClass::kCanonicalAcceptance);
  EXPECT_TRUE(ds[0].implementation_defined);
  EXPECT_EQ(ds[0].signature,
            "canonical|canonical-acceptance|cpp=valid,python=invalid||date-time-leap-second");
  // A lone surrogate in the text: a parser may refuse it, whatever the schema says about the string.
  ds = compare_canonical(R"({"x": "\ud800"})",
                         {verdict("cpp", Verdict::kValid), verdict("rust", Verdict::kInvalid)}, {});
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(ds[0].implementation_defined);
  EXPECT_EQ(canonical_traits(R"({"x": "\ud800"})", {}), std::vector<std::string>{"lone-surrogate"});
  // A number beyond the double range in a member no keyword checks (seen: Python's validating parse
  // refuses -1E400 in an extension member that its decode accepts).
  ds = compare_canonical(R"({"x-ext": -1E400})",
                         {verdict("cpp", Verdict::kValid), verdict("python", Verdict::kInvalid)}, {});
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(ds[0].implementation_defined);
  EXPECT_EQ(canonical_traits(R"({"x-ext": -1E400})", {}), std::vector<std::string>{"huge-exponent"});
  EXPECT_TRUE(canonical_traits(R"({"x-ext": -1E300})", {}).empty());
}

TEST(CanonicalComparator, CanonicallyValidButStructurallyRejectedIsLayerInconsistency) {
  auto ds = compare_canonical(kInput, {verdict("cpp", Verdict::kValid), verdict("python", Verdict::kValid)},
                              {decoded("cpp", Outcome::kAccepted),
                               decoded("python", Outcome::kRejected, {{"/at", "invalid_type", "error"}})});
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].cls, DivergenceClass::kLayerInconsistency);
  EXPECT_EQ(ds[0].implementations, std::vector<std::string>{"python"});
  EXPECT_EQ(ds[0].signature, "canonical|layer-inconsistency|python|invalid_type|");
  EXPECT_NE(ds[0].detail.find("invalid_type at '/at'"), std::string::npos) << ds[0].detail;
  // The other way round (structurally accepted, canonically invalid) is the known split: the codec
  // is looser than the schema.
  ds = compare_canonical(kInput, {verdict("cpp", Verdict::kInvalid, {"/x"}, {"false"})},
                         {decoded("cpp", Outcome::kAccepted)});
  EXPECT_TRUE(ds.empty());
  // A decode that did not answer is not paired.
  ds = compare_canonical(kInput, {verdict("cpp", Verdict::kValid)}, {decoded("cpp", Outcome::kCrash)});
  EXPECT_TRUE(ds.empty());
}

TEST(CanonicalComparator, SignaturesAreApartFromLayerOne) {
  auto one = compare("root", kInput, {decoded("cpp", Outcome::kCrash)});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].layer, kStructuralLayer);
  EXPECT_EQ(one[0].signature, "crash|cpp||");  // what layer 1 always wrote
  ValidateResult crash = verdict("cpp", Verdict::kCrash);
  auto two = compare_canonical(kInput, {crash}, {});
  ASSERT_EQ(two.size(), 1u);
  EXPECT_NE(one[0].bucket, two[0].bucket);
}

TEST(CanonicalComparator, ReferenceVerdictCarriesKeywordsAndTraits) {
  // The in-process reference on a small document: its keywords key the bucket, its traits decide.
  schema::Ir ir;
  auto body = json::parse(
      R"({"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.test/main.schema.json",)"
      R"("type":"object","properties":{"at":{"type":"string","format":"date-time"}}})");
  ASSERT_TRUE(body.ok());
  ir.documents.push_back(schema::Document{"schema/t/main.schema.json", "", std::move(body.value())});
  ValidateResult bad = exec::validate_reference(ir, "main", R"({"at":"yesterday"})");
  ASSERT_EQ(bad.verdict, Verdict::kInvalid);
  EXPECT_EQ(bad.error_paths, std::vector<std::string>{"/at"});
  EXPECT_EQ(bad.error_keywords, std::vector<std::string>{"format"});
  ValidateResult leap = exec::validate_reference(ir, "main", R"({"at":"1998-12-31T23:59:60Z"})");
  ASSERT_EQ(leap.verdict, Verdict::kValid);
  EXPECT_EQ(leap.implementation_defined, std::vector<std::string>{"date-time-leap-second"});
  EXPECT_EQ(exec::validate_reference(ir, "nope", "{}").verdict, Verdict::kUnsupported);

  ValidateResult ignores_formats = verdict("python", Verdict::kValid);
  auto ds = compare_canonical(R"({"at":"yesterday"})", {bad, ignores_formats}, {});
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].signature, "canonical|canonical-acceptance|cpp=invalid,python=valid|format|");
  EXPECT_FALSE(ds[0].implementation_defined);
  ds = compare_canonical(R"({"at":"1998-12-31T23:59:60Z"})",
                         {leap, verdict("python", Verdict::kInvalid, {"/at"})}, {});
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(ds[0].implementation_defined);
}

}  // namespace
}  // namespace crosscheck::layers::canonical
