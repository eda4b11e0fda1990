// matrix_matrix_run_test.cpp: `matrix run`'s judgment of each cell (matrix/matrix_run.hpp).
#include <gtest/gtest.h>

#include "json/parse.hpp"
#include "matrix/matrix_run.hpp"

namespace crosscheck::matrix {
namespace {

MatrixCase make_case(std::string id, std::string text, bool accepted, bool warning = false) {
  MatrixCase c;
  c.id = std::move(id);
  c.root = "tool_before_event";
  c.text = text;
  c.value = json::parse(text).value();
  c.accepted = accepted;
  c.warning = warning;
  return c;
}

core::ImplResult accepted(std::string encoded, std::vector<core::Diag> diagnostics = {}) {
  core::ImplResult r;
  r.outcome = core::Outcome::kAccepted;
  r.encoded = std::move(encoded);
  r.diagnostics = std::move(diagnostics);
  return r;
}

core::ImplResult rejected(std::string code, std::string path) {
  core::ImplResult r;
  r.outcome = core::Outcome::kRejected;
  r.diagnostics.push_back({std::move(path), std::move(code), "error"});
  return r;
}

TEST(MatrixRun, ACellMeetsItsCaseOrSaysWhyNot) {
  MatrixCase valid = make_case("a", R"({"x": 1.0})", true);
  EXPECT_EQ(check_case(valid, accepted(R"({"x":1.00})"), true), "");
  EXPECT_EQ(check_case(valid, rejected("invalid_type", "/x"), true),
            "rejected, expected accepted (invalid_type at '/x')");
  EXPECT_EQ(check_case(valid, accepted(R"({"x":2})"), true), "re-encoding differs from the value");
  EXPECT_EQ(check_case(valid, accepted(R"({"x":1})", {{"/y", "unknown_member", "warning"}}), true),
            "warned, expected no warning");
  // An implementation that does not report warnings is not held to them.
  EXPECT_EQ(check_case(valid, accepted(R"({"x":1})", {{"/y", "unknown_member", "warning"}}), false), "");
  core::ImplResult unsupported;
  unsupported.outcome = core::Outcome::kUnsupported;
  EXPECT_EQ(check_case(valid, unsupported, true), "");
  core::ImplResult crash;
  crash.outcome = core::Outcome::kCrash;
  crash.message = "exit 139";
  EXPECT_EQ(check_case(valid, crash, true), "crash: exit 139");
  EXPECT_EQ(check_case(make_case("b", "[]", false), accepted("[]"), true), "accepted, expected rejected");
}

TEST(MatrixRun, KnownFailuresStaleEntriesAndTalliesPerImplementation) {
  std::vector<MatrixCase> cases = {make_case("passes", "1", true), make_case("fails", "2", true),
                                   make_case("known-fail", "3", true), make_case("known-pass", "4", true)};
  std::vector<std::string> names = {"cpp", "python"};
  std::vector<core::PayloadResults> results(cases.size());
  for (std::size_t k = 0; k < cases.size(); ++k)
    results[k].results = {accepted(cases[k].text), accepted(cases[k].text)};
  results[1].results[1] = rejected("invalid_type", "");
  results[2].results[1] = rejected("invalid_type", "");
  baseline::Entry known_fail, known_pass;
  known_fail.id = "k1";
  known_fail.implementations = {"python"};
  known_fail.cases = {"known-fail"};
  known_pass.id = "k2";
  known_pass.implementations = {"python"};
  known_pass.cases = {"known-pass"};
  baseline::KnownCases known({known_fail, known_pass});

  MatrixVerdict v = judge_matrix(cases, results, names, {true, true}, known, false);
  ASSERT_EQ(v.tallies.size(), 2u);
  EXPECT_EQ(v.tallies[0].passed, 4u);
  EXPECT_EQ(v.tallies[1].passed, 1u);
  EXPECT_EQ(v.tallies[1].failed, 1u);
  EXPECT_EQ(v.tallies[1].known, 1u);
  EXPECT_EQ(v.tallies[1].stale, 1u);
  EXPECT_EQ(v.failing_cases, 2u);  // "fails", and "known-pass" whose entry is stale
  ASSERT_EQ(v.rows.size(), 2u);    // not verbose: the failing rows only
  EXPECT_EQ(v.rows[0].id, "fails");
  EXPECT_EQ(v.rows[0].cells, (std::vector<std::string>{"pass", "FAIL"}));
  EXPECT_EQ(v.rows[1].cells, (std::vector<std::string>{"pass", "STALE"}));
  ASSERT_EQ(v.reasons.size(), 2u);
  EXPECT_EQ(v.reasons[0], "fails [python]: rejected, expected accepted (invalid_type at '')");

  baseline::KnownCases again({known_fail, known_pass});
  MatrixVerdict verbose = judge_matrix(cases, results, names, {true, true}, again, true);
  EXPECT_EQ(verbose.rows.size(), 4u);
  EXPECT_EQ(verbose.rows[2].cells, (std::vector<std::string>{"pass", "known"}));
  EXPECT_EQ(verbose.reasons.size(), 3u);  // the known cell's reason too
}

}  // namespace
}  // namespace crosscheck::matrix
