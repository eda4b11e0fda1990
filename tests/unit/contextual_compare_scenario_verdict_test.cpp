// scenario_verdict_test.cpp: expectations (the verifier contract) and differences between clients.
#include <gtest/gtest.h>

#include "interop/server_admission.hpp"
#include "json/parse.hpp"
#include "layers/contextual/compare/scenario_verdict.hpp"

namespace crosscheck::scenario {
namespace {

json::Value v(std::string_view text) {
  auto p = json::parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? std::move(p.value()) : json::Value();
}

Row row(const std::string& type, const std::string& expectation) {
  std::string text =
      R"({"version":1,"scenarios":[{"id":"x","request":{"id":"x","params":{"event":{"id":"x","type":")" +
      type + R"("}}},"response":{},)" + expectation + "}]}";
  auto f = parse_scenario_text(text, "t.json");
  EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().text());
  return f.ok() ? f->rows[0] : Row{};
}

RowResult result(const std::string& status, const std::string& actual, const std::string& report = "null") {
  RowResult r;
  r.status = status;
  r.actual = v(actual);
  r.report_row = v(report);
  return r;
}

TEST(Verdict, Answers) {
  EXPECT_EQ(answer_of(result("passed", R"({"decision":"allow"})")), Answer::kDerived);
  EXPECT_EQ(answer_of(result("passed", R"({"rejected":true})")), Answer::kRejected);
  EXPECT_EQ(answer_of(result("failed", "null")), Answer::kRejected);
  EXPECT_EQ(answer_of(result("crash", "null")), Answer::kNone);
  EXPECT_EQ(answer_of(result("unsupported", R"({"decision":"allow"})")), Answer::kNone);
}

TEST(Verdict, ExpectedKeysAreCompared) {
  Row r = row("tool.before", R"("expected":{"decision":"allow","input":{"task":1.0}})");
  EXPECT_TRUE(
      check_expectation(r, result("passed", R"({"decision":"allow","input":{"task":1},"messages":[]})")).met);
  auto wrong = check_expectation(r, result("passed", R"({"decision":"deny","input":{"task":2}})"));
  EXPECT_FALSE(wrong.met);
  EXPECT_EQ(wrong.kind, "keys");
  EXPECT_EQ(wrong.keys, (std::vector<std::string>{"decision", "input"}));
  // Unasserted semantic output fails even when null: deny/ask/stop cannot leak a result.
  auto leak =
      check_expectation(r, result("passed", R"({"decision":"allow","input":{"task":1},"result":null})"));
  EXPECT_FALSE(leak.met);
  EXPECT_EQ(leak.text(), "reports unasserted result");
  EXPECT_EQ(check_expectation(r, result("failed", "null")).kind, "rejected");
}

TEST(Verdict, ExpectErrorNeedsARejectionOrAHostRefusal) {
  Row r = row("tool.before", R"("expectError":true)");
  EXPECT_TRUE(check_expectation(r, result("passed", R"({"rejected":true})")).met);
  EXPECT_EQ(check_expectation(r, result("failed", R"({"decision":"allow"})")).kind, "derived");
  Row host =
      row("tool.before", R"("expectError":true,"hostExpected":{"decision":"allow","input":{"task":0}})");
  const char* refused = R"({"id":"x","status":"passed","sdkAccepted":true,"hostAccepted":false})";
  EXPECT_TRUE(
      check_expectation(host, result("passed", R"({"decision":"allow","input":{"task":0}})", refused)).met);
  EXPECT_FALSE(check_expectation(host, result("passed", R"({"decision":"allow","input":{"task":0}})")).met);
}

TEST(Verdict, ClientsAreComparedRowByRow) {
  Row r = row("tool.before", R"("expected":{"decision":"allow"})");
  RowResult a = result("passed", R"({"decision":"allow","executed":true,"messages":["m"]})");
  RowResult b = result("failed", R"({"decision":"allow","executed":false,"messages":[]})");
  RowResult c = result("passed", R"({"rejected":true})");
  auto diffs = compare_row(r, {{"a", &a}, {"b", &b}});
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].cls, "contextual-result");
  EXPECT_EQ(diffs[0].bucket, "contextual-result/tool.before/executed,messages");
  diffs = compare_row(r, {{"a", &a}, {"c", &c}});
  ASSERT_EQ(diffs.size(), 2u);
  EXPECT_EQ(diffs[0].bucket, "contextual-acceptance/tool.before/a=derived,c=rejected");
  EXPECT_EQ(diffs[1].bucket, "contextual-expectation/c/tool.before/rejected");
  RowResult same = result("passed", R"({"messages":["m"],"decision":"allow","executed":true})");
  EXPECT_TRUE(compare_row(r, {{"a", &a}, {"same", &same}}).empty());
}

TEST(Verdict, BlameFollowsTheReferenceWhateverTheMajority) {
  Row r = row("tool.before", R"("expected":{"decision":"allow"})");
  RowResult ref = result("passed", R"({"decision":"allow","executed":true,"messages":[]})");
  RowResult a = result("passed", R"({"decision":"allow","executed":false,"messages":[]})");
  RowResult b = result("passed", R"({"decision":"allow","executed":false,"messages":[]})");
  RowResult rejected = result("passed", R"({"rejected":true})");
  // Two clients agree with each other against the reference: both are the ones that deviate.
  auto diffs = compare_row(r, {{"cpp", &ref}, {"a", &a}, {"b", &b}});
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].bucket, "contextual-result/tool.before/executed");
  EXPECT_EQ(diffs[0].clients, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(diffs[0].summary, "a, b differ from the reference on executed");
  // One client with the reference, one against it: only that one.
  diffs = compare_row(r, {{"cpp", &ref}, {"a", &a}, {"same", &ref}});
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].clients, (std::vector<std::string>{"a"}));
  // Acceptance: the rejecting client deviates even when it is the majority.
  diffs = compare_row(r, {{"cpp", &ref}, {"a", &rejected}, {"b", &rejected}});
  ASSERT_FALSE(diffs.empty());
  EXPECT_EQ(diffs[0].cls, "contextual-acceptance");
  EXPECT_EQ(diffs[0].bucket, "contextual-acceptance/tool.before/cpp=derived,a=rejected,b=rejected");
  EXPECT_EQ(diffs[0].clients, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(diffs[0].summary, "cpp=derived, a=rejected, b=rejected (deviating from the reference: a, b)");
  // A reference that answered nothing comparable blames nobody in particular.
  RowResult none = result("inapplicable", "null");
  diffs = compare_row(r, {{"cpp", &none}, {"a", &ref}, {"b", &rejected}});
  ASSERT_FALSE(diffs.empty());
  EXPECT_EQ(diffs[0].clients, (std::vector<std::string>{"a", "b"}));
}

TEST(Verdict, InputPlaceholdersAreToleratedOnlyOffToolBoundariesAndWhenUnasserted) {
  RowResult py = result("passed", R"({"decision":"allow","input":{},"flow":"stop"})");
  RowResult rs = result("passed", R"({"decision":"allow","input":null,"flow":"stop"})");
  Row finish = row("turn.finish.before", R"("expected":{"flow":"stop"})");
  EXPECT_TRUE(compare_row(finish, {{"python", &py}, {"rust", &rs}}).empty());
  Row asserted = row("turn.finish.before", R"("expected":{"flow":"stop","input":{}})");
  auto diffs = compare_row(asserted, {{"python", &py}, {"rust", &rs}});
  ASSERT_FALSE(diffs.empty());
  EXPECT_EQ(diffs[0].bucket, "contextual-result/turn.finish.before/input");
  Row tool = row("tool.before", R"("expected":{"flow":"stop"})");
  EXPECT_EQ(compare_row(tool, {{"python", &py}, {"rust", &rs}})[0].keys, (std::vector<std::string>{"input"}));
  RowResult real = result("passed", R"({"decision":"allow","input":{"a":1},"flow":"stop"})");
  EXPECT_FALSE(compare_row(finish, {{"python", &py}, {"other", &real}}).empty());
}

// A row at turn.finish.before after an earlier continue, with a neutral response: whether this response
// spends the unit is open (host::open_keys), what flow resolves to is not.
Row earlier_continue_row() {
  std::string text =
      R"({"version":1,"scenarios":[{"id":"x","request":{"jsonrpc":"2.0","id":"x","method":"hooks/intercept",)"
      R"("params":{"event":{"id":"x","type":"turn.finish.before"},"capabilities":{"effects":["flow"],)"
      R"("flow":{"operations":["stop","continue"],"remainingContinuations":2,"continuationCount":0}},)"
      R"("state":{"permission":"none","candidate":null,"flow":"continue"}}},)"
      R"("response":{"jsonrpc":"2.0","id":"x","result":{"effects":[]}},)"
      R"("expected":{"flow":"continue","continuationInstructions":[],"continuationRemaining":2}}]})";
  auto f = parse_scenario_text(text, "t.json");
  EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().text());
  return f.ok() ? f->rows[0] : Row{};
}

TEST(Verdict, ADifferenceOnOpenKeysAloneIsImplementationDefined) {
  Row r = earlier_continue_row();
  const std::string same = R"({"decision":"allow","executed":false,"messages":[],"flow":"continue",)"
                           R"("continuationInstructions":[])";
  RowResult cpp = result("passed", same + R"(,"continuationRemaining":2})");
  RowResult spent = result("passed", same + R"(,"continuationRemaining":1})");
  auto d = compare_row(r, {{"cpp", &cpp}, {"rust", &spent}});
  ASSERT_EQ(d.size(), 2u);
  for (const auto& x : d) {
    EXPECT_EQ(x.implementation_defined, std::vector<std::string>{"incoming-continue-allowance"}) << x.cls;
    EXPECT_NE(x.bucket.find("/implementation-defined"), std::string::npos) << x.bucket;
  }
  // The row carries earlier state: /prior-state, before /implementation-defined.
  EXPECT_EQ(d[0].bucket,
            "contextual-result/turn.finish.before/continuationRemaining/prior-state/implementation-defined");
  EXPECT_EQ(d[1].bucket,
            "contextual-expectation/rust/turn.finish.before/keys:continuationRemaining/prior-state/"
            "implementation-defined");
  EXPECT_EQ(d[0].clients, std::vector<std::string>{"rust"});
  // A client that also forgets the earlier continue differs on a key that is not open: a contract
  // difference, failing as any other.
  RowResult forgot = result("passed", R"({"decision":"allow","executed":false,"messages":[]})");
  auto e = compare_row(r, {{"cpp", &cpp}, {"rust", &forgot}});
  ASSERT_EQ(e.size(), 2u);
  for (const auto& x : e) EXPECT_TRUE(x.implementation_defined.empty()) << x.bucket;
  EXPECT_EQ(
      e[0].bucket,
      "contextual-result/turn.finish.before/flow,continuationInstructions,continuationRemaining/prior-state");
  // The same row without earlier state has no suffix.
  Row plain = row("turn.finish.before", R"("expected":{})");
  RowResult a = result("passed", R"({"decision":"allow"})"), b = result("passed", R"({"decision":"deny"})");
  EXPECT_EQ(compare_row(plain, {{"python", &a}, {"rust", &b}})[0].bucket,
            "contextual-result/turn.finish.before/decision");
}

Admission admission(const std::string& status, std::vector<std::string> traits = {}) {
  Admission a;
  a.status = status;
  a.traits = std::move(traits);
  return a;
}

TEST(Verdict, AdmissionAgreementIsNoDifferenceAndBrokenAnswersCompareWithNothing) {
  Row r = row("tool.before", R"("expected":{})");
  Admission yes = admission("admitted"), crash = admission("crash"), timeout = admission("timeout");
  EXPECT_TRUE(compare_admission(r, {{"cpp", &yes}, {"python", &yes}, {"rust", &yes}}).empty());
  EXPECT_TRUE(compare_admission(r, {{"cpp", &yes}, {"python", &crash}, {"rust", &timeout}}).empty());
}

TEST(Verdict, AdmissionBlamesWhoDiffersFromTheReferenceWhateverTheMajority) {
  Row r = row("tool.before", R"("expected":{})");
  Admission yes = admission("admitted"), no = admission("refused");
  auto one = compare_admission(r, {{"cpp", &yes}, {"python", &no}, {"rust", &yes}});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].cls, "request-admission");
  EXPECT_EQ(one[0].clients, std::vector<std::string>{"python"});
  EXPECT_EQ(one[0].bucket, "request-admission/tool.before/cpp=admitted,python=refused,rust=admitted");
  EXPECT_TRUE(one[0].implementation_defined.empty());
  // Two servers against the reference: they deviate, though they are the majority.
  auto two = compare_admission(r, {{"cpp", &no}, {"python", &yes}, {"rust", &yes}});
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0].clients, (std::vector<std::string>{"python", "rust"}));
}

TEST(Verdict, AdmissionIsImplementationDefinedByTheReferencesTraits) {
  Row r = row("tool.before", R"("expected":{})");
  Admission yes = admission("admitted", {"date-time-leap-second"}), no = admission("refused");
  auto d = compare_admission(r, {{"cpp", &yes}, {"python", &no}});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].implementation_defined, std::vector<std::string>{"date-time-leap-second"});
  EXPECT_EQ(d[0].bucket, "request-admission/tool.before/cpp=admitted,python=refused/implementation-defined");
  // Without an answer from the reference, everyone who answered is involved.
  Admission broken = admission("protocol");
  auto e = compare_admission(r, {{"cpp", &broken}, {"python", &no}, {"rust", &yes}});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].clients, (std::vector<std::string>{"python", "rust"}));
}

}  // namespace
}  // namespace crosscheck::scenario
