// The run folder's run.json, state.json, summary.json, coverage.json and merge.json: each written by
// its one writer, read back the same by its one reader, and refused naming the file, the JSON Pointer
// and the expectation when damaged or of another version.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "run/coverage_file.hpp"
#include "run/layout.hpp"
#include "run/merge_file.hpp"
#include "run/run_file.hpp"
#include "run/state_file.hpp"
#include "run/summary_file.hpp"
#include "util/file.hpp"
#include "util/result.hpp"

namespace crosscheck::run {
namespace {

namespace fs = std::filesystem;

class RunFolderFileOwners : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crosscheck-run-files-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const char* name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  /// The Fatal message of `read`, or "no error".
  template <class F>
  std::string refusal(F read) {
    try {
      read();
    } catch (const Fatal& e) {
      EXPECT_EQ(e.code(), kExitUsage);
      return e.what();
    }
    return "no error";
  }
  void expect_fits(const char* name, const char* schema) {
    auto parsed = json::parse(read_file_bytes(dir_ / name).value_or(""));
    ASSERT_TRUE(parsed.ok()) << name;
    auto violation = json::shipped_schema(schema).validate(parsed.value());
    EXPECT_FALSE(violation) << name << ": " << violation->pointer << ": " << violation->message;
  }
  fs::path dir_;
};

TEST_F(RunFolderFileOwners, RunConfigRoundTripsAndTellsConfigurationsApart) {
  EXPECT_FALSE(read_run_config(dir_));
  RunConfig c;
  c.seed = "18446744073709551615";  // the largest seed survives as its digits
  c.roots = {"effect", "event"};
  c.implementations = "cpp,python,rust";
  c.schema = "abc";
  c.shard = "1/4";
  c.deterministic = true;
  write_run_config(dir_, c);
  expect_fits(kRunFile, kRunSchema);
  auto back = read_run_config(dir_);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, c);
  EXPECT_EQ(back->implementation_names(), (std::set<std::string>{"cpp", "python", "rust"}));
  RunConfig other = c;
  other.seed = "1";
  other.shard.reset();
  EXPECT_EQ(c.configuration_difference(other), "") << "seed and shard may differ";
  other.implementations = "cpp,python";
  EXPECT_NE(c.configuration_difference(other).find("implementations \"cpp,python,rust\" vs \"cpp,python\""),
            std::string::npos)
      << c.configuration_difference(other);

  write(kRunFile,
        R"({"format":"crosscheck-fuzz/1","seed":"7","roots":[],"implementations":"x","schema":"s"})");
  std::string why = refusal([&] { read_run_config(dir_); });
  EXPECT_NE(why.find("run.json: /seed: "), std::string::npos) << why;
}

TEST_F(RunFolderFileOwners, StateRoundTripsAndADamagedOneIsRefused) {
  EXPECT_FALSE(read_state(dir_));
  write_state(dir_, {120, 130, 40, 12.3456});
  expect_fits(kStateFile, kStateSchema);
  auto p = read_state(dir_);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->iterations, 120u);
  EXPECT_EQ(p->generated, 130u);
  EXPECT_EQ(p->sent, 40u);
  EXPECT_DOUBLE_EQ(p->elapsed, 12.346);  // three decimals
  write(kStateFile, R"({"iterations":1,"generated":1,"sent":"1","elapsed":0})");
  std::string why = refusal([&] { read_state(dir_); });
  EXPECT_NE(why.find("state.json: /sent: "), std::string::npos) << why;
  write(kStateFile, R"({"iterations":)");
  why = refusal([&] { read_state(dir_); });
  EXPECT_NE(why.find("state.json: not JSON"), std::string::npos) << why;
}

TEST_F(RunFolderFileOwners, CoveragePercentIsComputedFromTheCounts) {
  EXPECT_EQ(reached_percent(0, 0), 100.0);
  EXPECT_EQ(reached_percent(1, 4), 25.0);
  CoverageFile c;
  c.figures = {10, 6, 3, 8, 10, true};
  c.flags = {{1, 3}, {2, 1}};
  c.impossible_flags = {{5, 1}};
  c.never_accepted = {"a.json#/x"};
  write_coverage(dir_, c);
  expect_fits(kCoverageFile, kCoverageSchema);
  auto back = read_coverage(dir_);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->figures.percent(), 50.0);  // 9 of the 18 possible pairs
  EXPECT_EQ(back->figures.percent_all(), 45.0);
  EXPECT_EQ(back->figures.impossible_pairs(), 2u);
  EXPECT_EQ(back->flags, c.flags);
  EXPECT_EQ(back->impossible_flags, c.impossible_flags);
  EXPECT_EQ(back->never_accepted, c.never_accepted);
  // A file of an older version: no possible pairs, no impossibleFlags; percent is then percentAll.
  write(kCoverageFile,
        R"({"tracked":4,"reachedAccepted":1,"reachedRejected":1,"percent":25,"percentAll":25,"flags":[]})");
  back = read_coverage(dir_);
  ASSERT_TRUE(back);
  EXPECT_FALSE(back->figures.has_possible);
  EXPECT_FALSE(back->lists_impossible);
  EXPECT_EQ(back->figures.percent(), 25.0);
  write(
      kCoverageFile,
      R"({"tracked":4,"reachedAccepted":1,"reachedRejected":1,"percent":25,"percentAll":25,"flags":[[1]]})");
  std::string why = refusal([&] { read_coverage(dir_); });
  EXPECT_NE(why.find("coverage.json: /flags/0: "), std::string::npos) << why;
}

TEST_F(RunFolderFileOwners, SummaryRoundTripsWithoutAnExitCode) {
  EXPECT_FALSE(read_summary(dir_));
  Summary s;
  s.seed = "3";
  s.elapsed = 1.5;
  s.generated = 100;
  s.sent = 40;
  s.divergent_inputs = 3;
  s.contract_inputs = 2;
  s.buckets = 1;
  s.findings = 2;
  s.by_class = {{"acceptance", 3}};
  s.by_root = {{"effect", 3}};
  s.by_implementation = {{"python", 3}};
  s.coverage = CoverageFigures{4, 2, 2, 4, 4, true};
  s.strict = true;
  s.implementations = {
      {"cpp", "crosscheck", "C++", "1", "20", std::nullopt, std::nullopt, std::nullopt, 5, false}};
  s.skew_table = {{"effect", {{"cpp", "aa"}}}};
  s.bucket_roots = {{"b1", {"effect", "event"}}};
  s.roots = {"effect"};
  s.merged = MergedRuns{2, {"seed 3, shard 0/2", "seed 3, shard 1/2"}, {}};
  write_summary(dir_, s);
  expect_fits(kSummaryFile, kSummarySchema);
  const std::string text = read_file_bytes(dir_ / kSummaryFile).value_or("");
  EXPECT_EQ(text.find("exitCode"), std::string::npos) << "the exit code is verdict.json's";
  auto written = json::parse(text);
  ASSERT_TRUE(written.ok());
  const json::Value* percent = written.value().find("coveragePercent");
  ASSERT_NE(percent, nullptr);
  EXPECT_EQ(std::stod(percent->number_text()), 50.0) << "the percentage of the coverage figures";
  auto back = read_summary(dir_);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->seed, s.seed);
  EXPECT_EQ(back->generated, 100u);
  EXPECT_EQ(back->by_class, s.by_class);
  EXPECT_EQ(back->bucket_roots, s.bucket_roots);
  EXPECT_EQ(back->skew_table, s.skew_table);
  ASSERT_EQ(back->implementations.size(), 1u);
  EXPECT_EQ(back->implementations[0].roots, 5u);
  ASSERT_TRUE(back->merged);
  EXPECT_EQ(back->merged->shards, s.merged->shards);
  EXPECT_FALSE(back->crosscheck_version.empty()) << "the writer names the crosscheck that wrote it";

  write(kSummaryFile, R"({"format":"crosscheck-summary/2"})");
  std::string why = refusal([&] { read_summary(dir_); });
  EXPECT_NE(why.find("summary.json: /format: expected \"crosscheck-summary/1\" (format version), found "
                     "\"crosscheck-summary/2\""),
            std::string::npos)
      << why;
  write(kSummaryFile, R"({"format":"crosscheck-summary/1","generated":1})");
  why = refusal([&] { read_summary(dir_); });
  EXPECT_NE(why.find("summary.json: "), std::string::npos) << why;
  EXPECT_NE(why.find("schemas/summary.schema.json"), std::string::npos) << why;
}

TEST_F(RunFolderFileOwners, MergeRecordKeepsRunsWithAndWithoutASummary) {
  EXPECT_FALSE(read_merge_record(dir_));
  MergeRecord m;
  MergeSource full;
  full.key = "seed 3, shard 0/2";
  full.path = "/tmp/s0";
  full.seed = "3";
  full.shard = "0/2";
  full.summary = Summary{};
  full.summary->generated = full.generated = 7;
  MergeSource cut;
  cut.key = "seed 3, shard 1/2";
  cut.path = "/tmp/s1";
  cut.seed = "3";
  cut.generated = 5;
  cut.sent = 2;
  m.sources = {full, cut};
  write_merge_record(dir_, m);
  expect_fits(kMergeFile, kMergeSchema);
  auto back = read_merge_record(dir_);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->sources.size(), 2u);
  EXPECT_TRUE(back->sources[0].summary);
  EXPECT_EQ(back->sources[0].generated, 7u);
  EXPECT_FALSE(back->sources[1].summary);
  EXPECT_EQ(back->sources[1].generated, 5u);
  EXPECT_EQ(back->sources[1].sent, 2u);
  EXPECT_FALSE(back->sources[1].shard);
  write(kMergeFile, R"({"format":"crosscheck-merge/1","sources":[{"summary":{}}]})");
  std::string why = refusal([&] { read_merge_record(dir_); });
  EXPECT_NE(why.find("merge.json: /sources/0"), std::string::npos) << why;
}

}  // namespace
}  // namespace crosscheck::run
