// baseline_run_story_test.cpp: the end of `crosscheck fuzz` on the terminal: the verdict first, a line
// per layer, only the new failing buckets listed (every bucket with --verbose), "new" said only of what
// fails, the reports and the run folder last.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "baseline/run_story.hpp"

namespace crosscheck::baseline {
namespace {

BucketReport bucket(const std::string& id, const std::string& layer, bool is_new, bool contract) {
  BucketReport b;
  b.bucket = id;
  b.cls = layer == "contextual" ? "contextual-result" : "acceptance";
  b.layer = layer;
  b.is_new = is_new;
  b.contract = contract;
  b.roots = {"effect"};
  b.implementations = {"cpp", "python"};
  b.blame.deviating = {"python"};
  b.blame.basis = verdict::Basis::kReference;
  b.occurrences = 1;
  b.witness.replay = "crosscheck replay run/findings/diverge-" + id + ".json";
  if (!is_new) b.entries = {"entry-" + id};
  return b;
}

/// One failing bucket (structural), one known (structural), two implementation-defined (one per
/// layer), and a stale entry, against a baseline.
Classification sample() {
  Classification c;
  c.buckets = {bucket("f000000000000001", "structural", true, true),
               bucket("d000000000000002", "structural", true, false),
               bucket("d000000000000003", "contextual", true, false),
               bucket("k000000000000004", "structural", false, true)};
  c.new_contract = 1;
  c.new_defined = 2;
  c.known = 1;
  c.stale = {"gone-entry"};
  return c;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

bool mentions(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

class RunStory : public ::testing::Test {
 protected:
  RunStory() {
    known.path = "known.json";
    story.run_dir = "run";
    story.baseline = &known;
    story.layers = {{"structural", 5000, "inputs", "schema coverage 80.0%"},
                    {"canonical", 5000, "inputs", ""},
                    {"contextual", 96, "scenario rows", "rule coverage 50.0%"}};
    story.report_files = {"run/report/report.html", "run/report/junit.xml"};
  }
  std::string print(const Classification& c) {
    std::ostringstream out;
    print_run_story(out, c, story);
    return out.str();
  }
  Baseline known;
  Story story;
};

TEST_F(RunStory, TheVerdictComesFirstThenALinePerLayerAndOnlyTheFailingBucketsAreListed) {
  const std::string text = print(sample());
  const auto lines = lines_of(text);
  ASSERT_GE(lines.size(), 7u) << text;
  EXPECT_EQ(
      lines[0].rfind("FAILED: 1 new failing bucket, contract divergences that known.json does not list", 0),
      0u)
      << text;
  EXPECT_EQ(
      lines[1],
      "  structural: 5000 inputs, 3 buckets: 1 new failing, 1 known, 1 implementation-defined (not failing); "
      "schema coverage 80.0%");
  EXPECT_EQ(
      lines[2],
      "  canonical: 5000 inputs, 0 buckets: 0 new failing, 0 known, 0 implementation-defined (not failing)");
  EXPECT_EQ(
      lines[3].rfind(
          "  contextual: 96 scenario rows, 1 bucket: 0 new failing, 0 known, 1 implementation-defined", 0),
      0u)
      << text;
  EXPECT_TRUE(mentions(text, "f000000000000001")) << text;
  EXPECT_TRUE(mentions(text, "crosscheck replay run/findings/diverge-f000000000000001.json")) << text;
  for (const char* unlisted : {"d000000000000002", "d000000000000003", "k000000000000004", "gone-entry"})
    EXPECT_FALSE(mentions(text, unlisted)) << unlisted << "\n" << text;
  EXPECT_TRUE(mentions(text, "1 baseline entry not seen in this run")) << text;
  EXPECT_TRUE(mentions(text, "crosscheck baseline update --baseline known.json run")) << text;
  EXPECT_EQ(lines[lines.size() - 2], "reports: run/report/report.html run/report/junit.xml");
  EXPECT_EQ(lines.back().rfind("run folder: run", 0), 0u);
  // "new" is said only of what fails.
  for (const auto& line : lines) EXPECT_FALSE(mentions(line, "new implementation-defined")) << line;
}

TEST_F(RunStory, VerboseListsTheImplementationDefinedAndKnownBucketsAndTheStaleEntries) {
  story.verbose = true;
  const std::string text = print(sample());
  EXPECT_EQ(text.rfind("FAILED: ", 0), 0u) << text;
  for (const char* listed : {"f000000000000001", "d000000000000002", "d000000000000003", "k000000000000004",
                             "entry-k000000000000004", "gone-entry"})
    EXPECT_TRUE(mentions(text, listed)) << listed << "\n" << text;
  EXPECT_TRUE(mentions(text, "implementation-defined buckets (not failing):")) << text;
  EXPECT_TRUE(mentions(text, "known buckets (the baseline lists them):")) << text;
}

TEST_F(RunStory, ACleanRunPassesAndCountsWhatItDoesNotList) {
  Classification c = sample();
  c.buckets.erase(c.buckets.begin());  // no failing bucket
  c.new_contract = 0;
  const std::string text = print(c);
  EXPECT_EQ(
      lines_of(text)[0],
      "passed: no new failing bucket against known.json (1 known to the baseline; 2 implementation-defined, "
      "not failing)");
  EXPECT_FALSE(mentions(text, "new failing buckets (")) << text;
  EXPECT_FALSE(mentions(text, "baseline update")) << text;
  EXPECT_TRUE(mentions(text, "--verbose lists them here")) << text;
}

TEST_F(RunStory, StrictFailsOnImplementationDefinedBucketsAndWithoutABaselineNothingIsKnown) {
  story.strict = true;
  story.baseline = nullptr;
  Classification c = sample();
  c.buckets.pop_back();  // without a baseline nothing is known
  const std::string text = print(c);
  EXPECT_EQ(text.rfind("FAILED: 3 new failing buckets, divergences (--strict", 0), 0u) << text;
  EXPECT_TRUE(mentions(text, "; no --baseline, so every bucket counts as new")) << text;
  EXPECT_TRUE(mentions(text, "d000000000000003")) << text;  // failing under --strict: listed
  EXPECT_FALSE(mentions(text, " known")) << text;
}

TEST_F(RunStory, ManyFailingBucketsAreCutToOneScreenUnlessVerbose) {
  Classification c;
  for (int i = 0; i < 30; ++i)
    c.buckets.push_back(bucket("f0000000000000" + std::to_string(10 + i), "structural", true, true));
  c.new_contract = 30;
  c.buckets.front().roots = {"a", "b", "c", "d", "e"};  // one line each, however many roots
  std::string text = print(c);
  EXPECT_TRUE(mentions(text, "roots a,b,c and 2 more: crosscheck replay")) << text;
  EXPECT_LE(lines_of(text).size(), kStoryFailingShown + 10) << text;
  EXPECT_TRUE(mentions(text, "... and 10 more (the report lists every bucket)")) << text;
  story.verbose = true;
  text = print(c);
  EXPECT_FALSE(mentions(text, "more (the report")) << text;
  EXPECT_TRUE(mentions(text, "f000000000000039")) << text;
}

}  // namespace
}  // namespace crosscheck::baseline
