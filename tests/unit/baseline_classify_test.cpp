// baseline_classify_test.cpp: new / known / stale sorting of finding files in a run folder, with
// minimized siblings, implementation-defined buckets, root-limited entries and update's entries.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "baseline/classify.hpp"
#include "json/write.hpp"
#include "layers/structural/comparator.hpp"
#include "layers/structural/input_traits.hpp"
#include "run/finding_file.hpp"

namespace crosscheck::baseline {
namespace {

namespace fs = std::filesystem;
using core::Outcome;

core::ImplResult answer(const std::string& impl, Outcome outcome, const std::string& input,
                        std::vector<core::Diag> diags = {}) {
  core::ImplResult r;
  r.implementation = impl;
  r.outcome = outcome;
  r.diagnostics = std::move(diags);
  if (outcome == Outcome::kAccepted) r.encoded = input;
  return r;
}

/// A finding as fuzz writes it, its divergences from the real comparator.
run::Finding finding(const std::string& root, const std::string& input,
                     std::vector<core::ImplResult> results) {
  run::Finding f;
  f.root = root;
  f.input = input;
  f.results = std::move(results);
  f.divergences = layers::structural::compare(root, input, f.results);
  f.traits = layers::structural::analyse_input(input).names();
  f.replay = "crosscheck replay " + run::finding_file_name(f);
  return f;
}

/// python rejects an unknown enum value the decoder only warns about (a contract divergence).
run::Finding enum_fault(const std::string& root, const std::string& input) {
  return finding(root, input,
                 {answer("cpp", Outcome::kAccepted, input, {{"/type", "unknown_enum", "warning"}}),
                  answer("python", Outcome::kRejected, input, {{"/type", "invalid_type", "error"}})});
}

/// rust raises on a duplicate key (implementation-defined input).
run::Finding duplicate_key_fault() {
  std::string input = R"({"a":1,"a":2})";
  return finding("effect", input,
                 {answer("cpp", Outcome::kAccepted, R"({"a":2})"), answer("rust", Outcome::kError, input)});
}

/// Both SDKs accept 2^53 in an integer slot; the reference rejects it (a contract divergence).
run::Finding unsafe_integer_fault() {
  std::string input = R"({"ref":"","sha256":"","size":9007199254740992})";
  return finding("content_upload_receipt", input,
                 {answer("cpp", Outcome::kRejected, input, {{"/size", "invalid_type", "error"}}),
                  answer("python", Outcome::kAccepted, input), answer("rust", Outcome::kAccepted, input)});
}

class ClassifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crosscheck-classify-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "findings");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const run::Finding& f) {
    return run::FindingStore((dir_ / "findings").string()).write(f);
  }

  Classification classify_dir(const Baseline& b) {
    std::vector<RunFolder> runs{load_run_folder(dir_.string())};
    return classify(b, occurrences(runs), runs.front().implementations);
  }

  static Entry entry(std::string id, std::vector<std::string> impls, std::string bucket) {
    Entry e;
    e.id = std::move(id);
    e.implementations = std::move(impls);
    e.bucket = std::move(bucket);
    e.reason = e.link = "x";
    return e;
  }

  fs::path dir_;
};

TEST_F(ClassifyTest, NewKnownStaleAndNotApplicable) {
  write(enum_fault("effect", R"({"type":"shiny"})"));
  write(enum_fault("effect", R"({"type":"glossy","x":1})"));  // same bucket, second occurrence
  write(duplicate_key_fault());
  Baseline b;
  b.path = "b.json";
  b.entries = {entry("python-enum", {"python"}, "*acceptance|*python=rejected*invalid_type*"),
               entry("python-timeouts", {"python"}, "timeout|*"), entry("go-only", {"go"}, "*")};

  auto c = classify_dir(b);
  ASSERT_EQ(c.buckets.size(), 2u);
  // New first: the implementation-defined rust error; then the known enum fault with both occurrences.
  EXPECT_TRUE(c.buckets[0].is_new);
  EXPECT_FALSE(c.buckets[0].contract);
  EXPECT_EQ(c.buckets[0].cls, "sdk-error");
  EXPECT_FALSE(c.buckets[1].is_new);
  EXPECT_TRUE(c.buckets[1].contract);
  EXPECT_EQ(c.buckets[1].occurrences, 2u);
  EXPECT_EQ(c.buckets[1].entries, std::set<std::string>{"python-enum"});
  EXPECT_EQ(c.new_contract, 0u);
  EXPECT_EQ(c.new_defined, 1u);
  EXPECT_EQ(c.known, 1u);
  EXPECT_EQ(c.stale, std::vector<std::string>{"python-timeouts"});
  EXPECT_EQ(c.not_applicable, std::vector<std::string>{"go-only"});
  EXPECT_EQ(c.exit_code(false), 0);
  EXPECT_EQ(c.exit_code(true), 1);  // --strict: the new implementation-defined bucket fails

  // Without the entry the enum fault is new and fails the run.
  b.entries.erase(b.entries.begin());
  auto without = classify_dir(b);
  EXPECT_EQ(without.new_contract, 1u);
  EXPECT_EQ(without.exit_code(false), 1);
  EXPECT_EQ(without.buckets[0].cls, "acceptance");  // new contract buckets come first
}

TEST_F(ClassifyTest, MinimizedSiblingIsTheWitnessButNotANewFinding) {
  std::string big = R"({"type":"shiny","padding":")" + std::string(300, 'p') + R"("})";
  std::string path = write(enum_fault("effect", big));
  // The reducer's sibling: same bucket, fewer bytes, plus a divergence the original did not have.
  run::Finding min = enum_fault("effect", R"({"type":"shiny"})");
  auto extra = finding("effect", "{}",
                       {answer("cpp", Outcome::kAccepted, "{}"), answer("python", Outcome::kCrash, "{}")});
  min.divergences.push_back(extra.divergences.front());
  json::WriteOptions pretty;
  pretty.indent = 2;
  std::string min_path = path.substr(0, path.size() - 5) + ".min.json";
  run::write_file_atomically(min_path, json::write(run::finding_to_json(min), pretty));

  Baseline b;
  b.path = "b.json";
  auto c = classify_dir(b);
  ASSERT_EQ(c.buckets.size(), 1u) << "the minimized file's extra divergence is not a finding of the run";
  EXPECT_TRUE(c.buckets[0].is_new);
  EXPECT_EQ(c.buckets[0].witness.finding, min_path);
  EXPECT_EQ(c.buckets[0].witness.input, R"({"type":"shiny"})");
  EXPECT_TRUE(c.buckets[0].witness.minimized);
}

TEST_F(ClassifyTest, AnEntryLimitedToOneRootLeavesTheOtherRootsNew) {
  write(enum_fault("effect", R"({"type":"shiny"})"));
  write(enum_fault("deny_effect", R"({"type":"shiny"})"));
  Baseline b;
  b.path = "b.json";
  Entry e = entry("effect-only", {"python"}, "*");
  e.root = "effect";
  b.entries = {e};
  auto c = classify_dir(b);
  ASSERT_EQ(c.buckets.size(), 1u) << "signatures leave the root out: one bucket";
  EXPECT_TRUE(c.buckets[0].is_new);
  EXPECT_EQ(c.buckets[0].witness.root, "deny_effect");
  EXPECT_EQ(c.buckets[0].entries, std::set<std::string>{"effect-only"});
  EXPECT_TRUE(c.stale.empty());
}

TEST_F(ClassifyTest, UpdateEntriesCoverTheNewBucketsAndKeepIdsUnique) {
  write(enum_fault("effect", R"({"type":"shiny"})"));
  write(duplicate_key_fault());
  Baseline b;
  b.path = "b.json";
  auto c = classify_dir(b);
  auto added = entries_for_new(b, c, false);
  ASSERT_EQ(added.size(), 1u) << "implementation-defined buckets only with --strict";
  EXPECT_EQ(added[0].implementations, std::vector<std::string>{"python"});
  EXPECT_EQ(added[0].reason, "TODO: triage");
  EXPECT_EQ(added[0].id, "acceptance-" + c.buckets[0].bucket);
  ASSERT_TRUE(added[0].witness.has_value());
  EXPECT_EQ(*added[0].witness->input, R"({"type":"shiny"})");
  EXPECT_EQ(entries_for_new(b, c, true).size(), 2u);

  // Appended to the file, they make every bucket known; an id already taken gets a suffix.
  std::string text = append_entries("", added);
  auto updated = parse_baseline(text, "b.json");
  ASSERT_TRUE(updated.ok()) << updated.error();
  auto again = classify_dir(updated.value());
  EXPECT_EQ(again.new_contract, 0u);
  EXPECT_EQ(again.exit_code(false), 0);
  EXPECT_TRUE(again.stale.empty());
  Baseline taken;
  taken.entries = {entry(added[0].id, {"go"}, "nothing")};
  EXPECT_EQ(entries_for_new(taken, c, false).front().id, added[0].id + "-2");
}

TEST_F(ClassifyTest, TheSdksThatBreakARuleAreBlamedAndAnEntryCanBlameTheReference) {
  write(unsafe_integer_fault());
  Baseline b;
  b.path = "b.json";
  auto c = classify_dir(b);
  ASSERT_EQ(c.buckets.size(), 1u);
  EXPECT_EQ(c.buckets[0].blame.deviating, (std::vector<std::string>{"python", "rust"}));
  EXPECT_EQ(c.buckets[0].blame.basis, verdict::Basis::kReference);
  EXPECT_EQ(entries_for_new(b, c, false).front().implementations,
            (std::vector<std::string>{"python", "rust"}));
  std::ostringstream printed;
  print_classification(printed, b, c, false, false);
  EXPECT_NE(printed.str().find("deviating: python,rust (differs from the reference cpp)"), std::string::npos)
      << printed.str();

  // A person decided the reference is the one in the wrong: the bucket is known, the blame moves.
  Entry wrong = entry("decoder-wrong", {"cpp"}, "*big-number-in-typed-slot*");
  wrong.reference_wrong = true;
  b.entries = {wrong};
  c = classify_dir(b);
  ASSERT_EQ(c.buckets.size(), 1u);
  EXPECT_FALSE(c.buckets[0].is_new);
  EXPECT_TRUE(c.buckets[0].reference_wrong);
  EXPECT_EQ(c.buckets[0].blame.deviating, std::vector<std::string>{"cpp"});
  EXPECT_EQ(c.buckets[0].blame.basis, verdict::Basis::kReferenceWrong);
  json::Value check = classification_to_json(b, {dir_.string()}, c, false);
  const json::Value& known = check.find("known")->items().at(0);
  EXPECT_EQ(json::write(*known.find("deviating")), "[\"cpp\"]");
  EXPECT_EQ(known.find("blameBasis")->string_value(), "reference-wrong");
  EXPECT_TRUE(known.find("referenceWrong")->as_bool());
}

TEST_F(ClassifyTest, BadFindingFilesAreFatalAndNameTheFile) {
  run::write_file_atomically((dir_ / "findings" / "diverge-0.json").string(),
                             "{\"format\": \"crosscheck-finding/9\"}");
  try {
    load_run_folder(dir_.string());
    FAIL() << "a finding of another version was read";
  } catch (const Fatal& e) {
    EXPECT_NE(std::string(e.what()).find("diverge-0.json"), std::string::npos) << e.what();
    EXPECT_EQ(e.code(), kExitUsage);
  }
  EXPECT_THROW(load_run_folder((dir_ / "absent").string()), Fatal);
}

}  // namespace
}  // namespace crosscheck::baseline
