// verdict_blame_test.cpp: who deviates, by the contract's reference or by majority, on divergences
// made by the real comparator from the answers the pinned SDKs give.
#include <gtest/gtest.h>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "layers/structural/comparator.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::verdict {
namespace {

using core::DivergenceClass;
using core::ImplResult;
using core::Outcome;

ImplResult answer(const std::string& impl, Outcome outcome, const std::string& input,
                  std::vector<core::Diag> diags = {}) {
  ImplResult r;
  r.implementation = impl;
  r.outcome = outcome;
  r.diagnostics = std::move(diags);
  if (outcome == Outcome::kAccepted) r.encoded = input;
  return r;
}

/// The one divergence of class `cls` the comparator finds in `results`.
core::Divergence only(const std::string& input, const std::vector<ImplResult>& results, DivergenceClass cls) {
  auto found = layers::structural::compare("content_upload_receipt", input, results);
  std::vector<core::Divergence> of_class;
  for (const auto& d : found) {
    if (d.cls == cls) of_class.push_back(d);
  }
  EXPECT_EQ(of_class.size(), 1u) << "divergences: " << found.size();
  return of_class.empty() ? core::Divergence{} : of_class.front();
}

const std::string kUnsafeSize = R"({"ref":"","sha256":"","size":9007199254740992})";

std::vector<ImplResult> both_sdks_accept_2_to_53() {
  return {answer("cpp", Outcome::kRejected, kUnsafeSize, {{"/size", "invalid_type", "error"}}),
          answer("python", Outcome::kAccepted, kUnsafeSize), answer("rust", Outcome::kAccepted, kUnsafeSize)};
}

TEST(Blame, BothSdksBreakTheSafeIntegerRuleSoBothDeviateAndTheReferenceDoesNot) {
  auto results = both_sdks_accept_2_to_53();
  auto d = only(kUnsafeSize, results, DivergenceClass::kAcceptance);
  ASSERT_FALSE(d.implementation_defined) << d.signature;  // a typed slot: the contract decides
  Blame b = blame(d, results);
  // Two against one, and the one is right: a majority vote would have blamed cpp.
  EXPECT_EQ(b.deviating, (std::vector<std::string>{"python", "rust"}));
  EXPECT_EQ(b.basis, Basis::kReference);
  EXPECT_EQ(b.reference, "cpp");
  EXPECT_STREQ(basis_name(b.basis), "reference");
  EXPECT_EQ(b.explanation(), "differs from the reference cpp");
}

TEST(Blame, ABaselineEntrySayingTheReferenceIsWrongMovesTheBlameToIt) {
  auto results = both_sdks_accept_2_to_53();
  auto d = only(kUnsafeSize, results, DivergenceClass::kAcceptance);
  Blame b = blame(d, results, {.reference_wrong = true});
  EXPECT_EQ(b.deviating, std::vector<std::string>{"cpp"});
  EXPECT_EQ(b.basis, Basis::kReferenceWrong);
  EXPECT_EQ(b.reference, "cpp");
  EXPECT_STREQ(basis_name(b.basis), "reference-wrong");
  // Those that answered as the reference did share its blame.
  std::vector<ImplResult> split = {
      answer("cpp", Outcome::kRejected, kUnsafeSize, {{"/size", "invalid_type", "error"}}),
      answer("python", Outcome::kAccepted, kUnsafeSize),
      answer("rust", Outcome::kRejected, kUnsafeSize, {{"/size", "invalid_type", "error"}})};
  d = only(kUnsafeSize, split, DivergenceClass::kAcceptance);
  EXPECT_EQ(blame(d, split).deviating, std::vector<std::string>{"python"});
  EXPECT_EQ(blame(d, split, {.reference_wrong = true}).deviating, (std::vector<std::string>{"cpp", "rust"}));
}

TEST(Blame, ImplementationDefinedIsDecidedByMajorityAndSaysSo) {
  // A lone surrogate: the Rust crate rejects the text as JSON, the others parse it (free behaviour).
  const std::string input = R"({"ref":"\ud800","sha256":"","size":1})";
  std::vector<ImplResult> results = {
      answer("cpp", Outcome::kAccepted, input), answer("python", Outcome::kAccepted, input),
      answer("rust", Outcome::kRejected, input, {{"", "invalid_json", "error"}})};
  auto d = only(input, results, DivergenceClass::kAcceptance);
  ASSERT_TRUE(d.implementation_defined) << d.signature;
  Blame b = blame(d, results);
  EXPECT_EQ(b.deviating, std::vector<std::string>{"rust"});
  EXPECT_EQ(b.basis, Basis::kMajority);
  EXPECT_EQ(b.reference, "");
  EXPECT_STREQ(basis_name(b.basis), "majority");
  EXPECT_EQ(b.explanation(), "differs from the majority (implementation-defined input)");

  // The majority decides even against the reference.
  std::vector<ImplResult> against = {
      answer("cpp", Outcome::kAccepted, input),
      answer("python", Outcome::kRejected, input, {{"", "invalid_json", "error"}}),
      answer("rust", Outcome::kRejected, input, {{"", "invalid_json", "error"}})};
  d = only(input, against, DivergenceClass::kAcceptance);
  ASSERT_TRUE(d.implementation_defined);
  b = blame(d, against);
  EXPECT_EQ(b.deviating, std::vector<std::string>{"cpp"});
  EXPECT_EQ(b.basis, Basis::kMajority);

  // No majority (one against one): the reference decides, and the basis says so.
  std::vector<ImplResult> tie = {answer("cpp", Outcome::kAccepted, input),
                                 answer("rust", Outcome::kRejected, input, {{"", "invalid_json", "error"}})};
  d = only(input, tie, DivergenceClass::kAcceptance);
  ASSERT_TRUE(d.implementation_defined);
  b = blame(d, tie);
  EXPECT_EQ(b.deviating, std::vector<std::string>{"rust"});
  EXPECT_EQ(b.basis, Basis::kReference);
}

TEST(Blame, AtTheLevelOfTheTextParsedIsOneAnswerWhateverTheOutcomeAfter) {
  // rust rejects the text (lone surrogate); cpp rejects what it says (a string in the size slot),
  // python accepts it: cpp and python both parsed it, so rust alone deviates in that divergence.
  const std::string input = R"({"ref":"\ud800","sha256":"","size":"1"})";
  std::vector<ImplResult> results = {
      answer("cpp", Outcome::kRejected, input, {{"/size", "invalid_type", "error"}}),
      answer("python", Outcome::kAccepted, input),
      answer("rust", Outcome::kRejected, input, {{"", "invalid_json", "error"}})};
  auto found = layers::structural::compare("content_upload_receipt", input, results);
  const core::Divergence* text_level = nullptr;
  const core::Divergence* acceptance = nullptr;
  for (const auto& d : found) {
    if (d.cls != DivergenceClass::kAcceptance) continue;
    (std::find(d.implementations.begin(), d.implementations.end(), "rust") != d.implementations.end()
         ? text_level
         : acceptance) = &d;
  }
  ASSERT_TRUE(text_level && acceptance) << found.size();
  EXPECT_EQ(blame(*text_level, results).deviating, std::vector<std::string>{"rust"});
  // Among those that parsed it, a contract divergence: python differs from the reference.
  ASSERT_FALSE(acceptance->implementation_defined);
  Blame b = blame(*acceptance, results);
  EXPECT_EQ(b.deviating, std::vector<std::string>{"python"});
  EXPECT_EQ(b.basis, Basis::kReference);
}

TEST(Blame, WarningsAreComparedWithTheReferencesWarnings) {
  const std::string input = R"({"ref":"","sha256":"","size":1,"kind":"zzz"})";
  std::vector<ImplResult> results = {
      answer("cpp", Outcome::kAccepted, input, {{"/kind", "unknown_enum", "warning"}}),
      answer("python", Outcome::kAccepted, input), answer("rust", Outcome::kAccepted, input)};
  auto d = only(input, results, DivergenceClass::kWarnings);
  ASSERT_FALSE(d.implementation_defined);
  Blame b = blame(d, results);
  EXPECT_EQ(b.deviating, (std::vector<std::string>{"python", "rust"}));
  EXPECT_EQ(b.basis, Basis::kReference);
}

TEST(Blame, OwnFailuresAndDivergencesWithoutTheReference) {
  std::vector<ImplResult> results = {answer("cpp", Outcome::kAccepted, kUnsafeSize),
                                     answer("python", Outcome::kCrash, kUnsafeSize)};
  auto d = only(kUnsafeSize, results, DivergenceClass::kCrash);
  Blame b = blame(d, results, {.reference_wrong = true});  // nothing to move: it is python's crash
  EXPECT_EQ(b.deviating, std::vector<std::string>{"python"});
  EXPECT_EQ(b.basis, Basis::kOwnFailure);

  // A contract divergence between two SDKs with no reference among them: no one to measure against.
  std::vector<ImplResult> sdks = {
      answer("go", Outcome::kRejected, kUnsafeSize, {{"/size", "invalid_type", "error"}}),
      answer("python", Outcome::kAccepted, kUnsafeSize)};
  d = only(kUnsafeSize, sdks, DivergenceClass::kAcceptance);
  ASSERT_FALSE(d.implementation_defined);
  b = blame(d, sdks);
  EXPECT_EQ(b.deviating, (std::vector<std::string>{"go", "python"}));
  EXPECT_EQ(b.basis, Basis::kUndecided);
}

TEST(Blame, TheReferenceOfASkewedSchemaGroupIsTheDecoderOnThatSchema) {
  EXPECT_TRUE(is_reference("cpp"));
  EXPECT_TRUE(is_reference("cpp@python"));
  EXPECT_FALSE(is_reference("cppx"));
  EXPECT_FALSE(is_reference("cpp@"));
  EXPECT_FALSE(is_reference("python"));
  std::vector<ImplResult> results = {
      answer("cpp@python", Outcome::kRejected, kUnsafeSize, {{"/size", "invalid_type", "error"}}),
      answer("python", Outcome::kAccepted, kUnsafeSize)};
  auto d = only(kUnsafeSize, results, DivergenceClass::kAcceptance);
  Blame b = blame(d, results);
  EXPECT_EQ(b.deviating, std::vector<std::string>{"python"});
  EXPECT_EQ(b.reference, "cpp@python");
}

}  // namespace
}  // namespace crosscheck::verdict
