// fixtures_fixture_run_test.cpp: the verdicts of fixtures run on hand-made answers: expectations
// against canonical verdicts over every line, framing, params.event, skew, unsupported documents,
// the layer invariant, and known failures (known, stale, stale patterns).
#include <gtest/gtest.h>

#include "fixtures/fixture_run.hpp"
#include "json/schema_validator.hpp"
#include "schema/loader.hpp"
#include "util/result.hpp"

namespace crosscheck::fixtures {
namespace {
using core::Outcome;
using core::Verdict;

class JudgeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ir = schema::load_schema(std::string(CROSSCHECK_TEST_SCHEMAS) + "/mini");
    ASSERT_TRUE(ir.ok()) << ir.error().message();
    snapshot_.ir = std::make_shared<const schema::Ir>(std::move(ir).value());
    snapshot_.origin = "test";
    answers_.implementations = {"cpp", "python"};
    for (const auto& r : snapshot_.ir->roots) {
      for (const auto& n : answers_.implementations)
        answers_.skew[r.snake_name][n] = r.closure_hash.substr(0, 12);
    }
  }

  FixtureCase& add(std::string id, Binding binding, std::string bytes, bool expected) {
    FixtureCase c;
    c.index = manifest_.cases.size();
    c.id = std::move(id);
    c.binding = binding;
    c.schema = "schema/draft/request.schema.json";
    c.expected_valid = expected;
    manifest_.cases.push_back(std::move(c));
    files_.push_back(frame(binding, std::move(bytes)));
    return manifest_.cases.back();
  }

  /// Plans the probes and gives every implementation `valid` and `accepted` on each, for tests to edit.
  void plan_all() {
    probes_ = plan(manifest_, files_, snapshot_);
    std::size_t n = answers_.implementations.size();
    answers_.canonical.assign(probes_.size(), std::vector<core::ValidateResult>(n));
    answers_.structural.assign(probes_.size(), std::vector<core::ImplResult>(n));
    for (auto& row : answers_.canonical) {
      for (auto& v : row) v.verdict = Verdict::kValid;
    }
    for (auto& row : answers_.structural) {
      for (auto& s : row) s.outcome = Outcome::kAccepted;
    }
  }

  FixturesResult judge_with(std::vector<baseline::Entry> entries = {}) {
    baseline::KnownCases known(std::move(entries));
    return judge(manifest_, files_, snapshot_, probes_, answers_, known);
  }

  static const Check* find(const Cell& cell, CheckKind kind) {
    for (const auto& c : cell.checks) {
      if (c.kind == kind) return &c;
    }
    return nullptr;
  }

  Manifest manifest_;
  std::vector<FixtureFile> files_;
  Snapshot snapshot_;
  std::vector<Probe> probes_;
  Answers answers_;
};

TEST_F(JudgeTest, EveryLineOfAStdioFileCounts) {
  add("stdio.two.valid", Binding::kStdioJsonl, "{\"a\":1}\n{\"a\":2}\n", true);
  plan_all();
  ASSERT_EQ(probes_.size(), 2u);
  EXPECT_EQ(probes_[1].line, 2u);
  EXPECT_EQ(probes_[1].document, "request");
  EXPECT_EQ(probes_[1].root, "mini_request");
  answers_.canonical[1][1].verdict = Verdict::kInvalid;
  answers_.canonical[1][1].error_paths = {"/params/x"};
  auto r = judge_with();
  EXPECT_EQ(r.cases[0].cells[0].label(), "pass");
  const Cell& py = r.cases[0].cells[1];
  EXPECT_EQ(py.label(), "FAIL");
  const Check* schema = find(py, CheckKind::kSchema);
  ASSERT_NE(schema, nullptr);
  EXPECT_EQ(schema->detail, "line 2: invalid at '/params/x', expected valid");
  EXPECT_EQ(schema->actual, std::optional<bool>(false));
  // Line 1 is valid and accepted: the layer invariant holds.
  EXPECT_EQ(find(py, CheckKind::kLayers)->state, CheckState::kPass);
  EXPECT_EQ(r.exit_code(), kExitDivergence);
}

TEST_F(JudgeTest, ValidWhereInvalidIsExpectedFails) {
  add("http.x.invalid", Binding::kHttpJson, "{}", false);
  plan_all();
  auto r = judge_with();
  const Check* schema = find(r.cases[0].cells[0], CheckKind::kSchema);
  EXPECT_EQ(schema->state, CheckState::kFail);
  EXPECT_EQ(schema->detail, "canonically valid, expected invalid");
}

TEST_F(JudgeTest, AFramingFaultMakesTheCaseInvalid) {
  add("stdio.crlf.invalid", Binding::kStdioJsonl, "{}\r\n", false);
  plan_all();
  auto r = judge_with();
  EXPECT_EQ(r.cases[0].framing_error,
            std::optional<std::string>("line 1 holds a CR (expected LF line ends only)"));
  EXPECT_EQ(r.cases[0].cells[0].label(), "pass");
  EXPECT_EQ(r.exit_code(), kExitClean);
}

TEST_F(JudgeTest, EventSchemaChecksParamsEvent) {
  FixtureCase& c =
      add("http.event.valid", Binding::kHttpJson, R"({"params":{"event":{"type":"ping"}}})", true);
  c.event_schema = "schema/draft/ping.schema.json";
  add("http.no-event.valid", Binding::kHttpJson, R"({"params":{}})", true).event_schema =
      "schema/draft/ping.schema.json";
  plan_all();
  ASSERT_EQ(probes_.size(), 4u);
  EXPECT_EQ(probes_[1].kind, CheckKind::kEvent);
  EXPECT_EQ(probes_[1].root, "ping_event");
  EXPECT_EQ(probes_[1].bytes, std::optional<std::string>(R"({"type":"ping"})"));
  EXPECT_FALSE(probes_[3].bytes);
  auto r = judge_with();
  EXPECT_EQ(r.cases[0].cells[0].label(), "pass");
  const Check* event = find(r.cases[1].cells[0], CheckKind::kEvent);
  EXPECT_EQ(event->state, CheckState::kFail);
  EXPECT_EQ(event->detail, "no params.event, expected valid");
}

TEST_F(JudgeTest, SkewIsNotComparedButTheLayerInvariantStillHolds) {
  add("http.skew.valid", Binding::kHttpJson, "{}", false);
  plan_all();
  answers_.skew["mini_request"]["python"] = "0123456789ab";
  auto r = judge_with();
  const Cell& py = r.cases[0].cells[1];
  EXPECT_EQ(find(py, CheckKind::kSchema)->state, CheckState::kSkew);
  EXPECT_NE(find(py, CheckKind::kSchema)->detail.find("0123456789ab in the implementation's bundle"),
            std::string::npos);
  // The expectation (invalid) would fail; skew keeps it out. The layer check passes, but it did not
  // compare the fixture: the cell says skew.
  EXPECT_EQ(find(py, CheckKind::kLayers)->state, CheckState::kPass);
  EXPECT_EQ(py.label(), "skew");
  answers_.structural[0][1].outcome = Outcome::kRejected;
  answers_.structural[0][1].diagnostics = {{"/a", "invalid_type", "error"}};
  r = judge_with();
  const Check* layers = find(r.cases[0].cells[1], CheckKind::kLayers);
  EXPECT_EQ(layers->state, CheckState::kFail);
  EXPECT_EQ(layers->detail,
            "request: canonically valid, but the structural decode as mini_request says rejected "
            "(invalid_type at '/a')");
}

TEST_F(JudgeTest, OnlySkewMeansSkew) {
  add("http.skew.invalid", Binding::kHttpJson, "{}", false);
  plan_all();
  answers_.skew["mini_request"]["python"] = "0123456789ab";
  answers_.canonical[0][0].verdict = Verdict::kInvalid;
  answers_.canonical[0][1].verdict = Verdict::kInvalid;
  auto r = judge_with();
  EXPECT_EQ(r.cases[0].cells[0].label(), "pass");
  EXPECT_EQ(r.cases[0].cells[1].label(), "skew");
  EXPECT_EQ(r.exit_code(), kExitClean);
}

TEST_F(JudgeTest, UnsupportedAndErrors) {
  add("http.a.valid", Binding::kHttpJson, "{}", true);
  plan_all();
  answers_.canonical[0][1].verdict = Verdict::kUnsupported;
  auto r = judge_with();
  EXPECT_EQ(r.cases[0].cells[1].label(), "unsup");
  answers_.canonical[0][1].verdict = Verdict::kError;
  answers_.canonical[0][1].message = "AttributeError";
  r = judge_with();
  EXPECT_EQ(r.cases[0].cells[1].label(), "FAIL");
  EXPECT_EQ(find(r.cases[0].cells[1], CheckKind::kSchema)->detail, "error: AttributeError");
  answers_.skew["mini_request"]["python"] = "";  // the implementation lacks the root
  r = judge_with();
  EXPECT_EQ(r.cases[0].cells[1].label(), "unsup");
}

TEST_F(JudgeTest, KnownFailuresKnownStaleAndStalePatterns) {
  add("http.a.valid", Binding::kHttpJson, "{}", true);
  add("http.b.valid", Binding::kHttpJson, "{}", true);
  plan_all();
  answers_.canonical[0][1].verdict = Verdict::kInvalid;
  baseline::Entry known;
  known.id = "py-a";
  known.implementations = {"python"};
  known.cases = {"http.a.valid"};
  auto r = judge_with({known});
  EXPECT_EQ(r.cases[0].cells[1].label(), "known");
  EXPECT_EQ(r.cases[0].cells[1].known->entries, "py-a");
  EXPECT_EQ(r.exit_code(), kExitClean);
  baseline::Entry stale = known;
  stale.id = "py-b";
  stale.cases = {"http.b.valid"};
  r = judge_with({known, stale});
  EXPECT_EQ(r.cases[1].cells[1].label(), "STALE");
  EXPECT_EQ(r.exit_code(), kExitDivergence);
  baseline::Entry glob = known;
  glob.id = "py-glob";
  glob.cases = {"registration.*"};
  r = judge_with({known, glob});
  ASSERT_EQ(r.stale_patterns.size(), 1u);
  EXPECT_NE(r.stale_patterns[0].find("py-glob: pattern registration.* covers no failing case"),
            std::string::npos);
  EXPECT_EQ(r.exit_code(), kExitDivergence);
  baseline::Entry other = known;
  other.id = "py-gone";
  other.cases = {"http.renamed.valid"};
  r = judge_with({known, other});
  ASSERT_EQ(r.unknown_ids.size(), 1u);
  EXPECT_EQ(r.exit_code(), kExitClean);
}

TEST_F(JudgeTest, DocumentsOutsideTheSnapshotAreInputErrors) {
  add("http.a.valid", Binding::kHttpJson, "{}", true).aggregate_expected_valid = true;
  try {
    plan(manifest_, files_, snapshot_);
    FAIL() << "no error";
  } catch (const Fatal& e) {
    EXPECT_EQ(e.code(), kExitUsage);
    EXPECT_NE(
        std::string(e.what()).find("/cases/0/aggregateExpectedValid: schema/draft/schema.json: expected a "
                                   "document of the schema snapshot"),
        std::string::npos)
        << e.what();
  }
  manifest_.cases[0].aggregate_expected_valid.reset();
  manifest_.cases[0].schema = "schema/draft/nothing.schema.json";
  EXPECT_THROW(plan(manifest_, files_, snapshot_), Fatal);
}

TEST_F(JudgeTest, ResultJsonFitsItsSchema) {
  add("stdio.two.valid", Binding::kStdioJsonl, "{}\n{}\n", true);
  plan_all();
  auto r = judge_with();
  json::Value doc = result_to_json(manifest_, snapshot_, answers_, r);
  const json::Value* cases = doc.find("cases");
  ASSERT_TRUE(cases && cases->is_array());
  EXPECT_EQ(cases->items()[0].find("messages")->number_text(), "2");
  EXPECT_EQ(doc.find("exitCode")->number_text(), "0");
  auto bad = json::shipped_schema("fixtures-result.schema.json").validate(doc);
  EXPECT_FALSE(bad) << bad->pointer << ": " << bad->message;
  answers_.canonical[1][0].verdict = Verdict::kInvalid;
  answers_.canonical[1][0].error_paths = {"/x"};
  doc = result_to_json(manifest_, snapshot_, answers_, judge_with());
  bad = json::shipped_schema("fixtures-result.schema.json").validate(doc);
  EXPECT_FALSE(bad) << bad->pointer << ": " << bad->message;
  EXPECT_EQ(doc.find("exitCode")->number_text(), "1");
}

}  // namespace
}  // namespace crosscheck::fixtures
