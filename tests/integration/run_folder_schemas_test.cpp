// Every file of a run folder, as the real binary writes it (a short fuzz on the in-process cpp adapter
// against a faulty proxy of it, a reduce, two shards and their merge, a baseline check), fits its JSON
// Schema in schemas/; the folder's path has spaces, quotes and a '$', and the replay command a finding
// prints runs through `sh -c` as it is.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"
#include "run/finding_files.hpp"
#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "run/replay.hpp"
#include "util/file.hpp"

namespace crosscheck::run {
namespace {

namespace fs = std::filesystem;

const std::string kBinary = std::string(CROSSCHECK_BINARY_DIR) + "/crosscheck";
const std::string kSource = std::string(CROSSCHECK_TEST_DATA) + "/../..";

std::string adapter_options() {
  return "--adapters cpp --adapter " +
         shell_quote("faulty=python3 " + kSource + "/tests/fake_adapters/faulty_proxy.py --fault " +
                     "unknown-enum-error -- " + kBinary + " serve-adapter");
}

/// The exit status of `command` run by sh, its output in `log`.
int sh(const std::string& command, const fs::path& log) {
  int status = std::system((command + " >" + shell_quote(log.string()) + " 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string slurp(const fs::path& p) { return read_file_bytes(p).value_or("(unreadable)"); }

/// Fails the test naming the file, the JSON Pointer and the violation.
void expect_fits(const fs::path& file, const char* schema) {
  SCOPED_TRACE(file.string());
  auto text = read_file_bytes(file);
  ASSERT_TRUE(text) << "missing: " << file;
  auto parsed = json::parse(*text);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  auto violation = json::shipped_schema(schema).validate(parsed.value());
  EXPECT_FALSE(violation) << file << ": " << violation->pointer << ": " << violation->message;
}

/// Every line of a JSON-lines file fits `schema`; returns how many lines it has.
std::size_t expect_lines_fit(const fs::path& file, const char* schema) {
  std::ifstream in(file);
  EXPECT_TRUE(in) << "missing: " << file;
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    auto parsed = json::parse(line);
    EXPECT_TRUE(parsed.ok()) << file << " line " << n << ": " << parsed.error().message();
    if (!parsed.ok()) continue;
    auto violation = json::shipped_schema(schema).validate(parsed.value());
    EXPECT_FALSE(violation) << file << " line " << n << ": " << violation->pointer << ": "
                            << violation->message;
  }
  return n;
}

void expect_events_fit(const fs::path& file) {
  std::ifstream in(file);
  ASSERT_TRUE(in) << "missing: " << file;
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    auto parsed = json::parse(line);
    ASSERT_TRUE(parsed.ok()) << file << " line " << n << ": " << parsed.error().message();
    auto violation = json::shipped_schema(kEventSchema).validate(parsed.value());
    EXPECT_FALSE(violation) << file << " line " << n << ": " << violation->pointer << ": "
                            << violation->message;
  }
  EXPECT_GT(n, 1u) << file;
}

/// Checks every file `dir` holds against its schema; returns how many findings it has.
std::size_t expect_folder_fits(const fs::path& dir, bool finished = true) {
  expect_fits(dir / kRunFile, kRunSchema);
  if (finished) {
    expect_fits(dir / kSummaryFile, kSummarySchema);
    expect_fits(dir / kCoverageFile, kCoverageSchema);
    expect_fits(dir / kVerdictFile, kVerdictSchema);
  }
  if (fs::exists(dir / kStateFile)) expect_fits(dir / kStateFile, kStateSchema);
  if (fs::exists(dir / kBaselineCheckFile)) expect_fits(dir / kBaselineCheckFile, kBaselineCheckSchema);
  if (fs::exists(dir / kEventLogFile)) expect_events_fit(dir / kEventLogFile);
  if (fs::exists(dir / kMergeFile)) expect_fits(dir / kMergeFile, kMergeSchema);
  if (fs::exists(dir / kReportDir / "buckets.jsonl"))
    expect_lines_fit(dir / kReportDir / "buckets.jsonl", kReportBucketSchema);
  std::size_t findings = 0;
  for (const auto& f : list_finding_files(dir / kFindingsDir)) {
    ++findings;
    expect_fits(f.path, kFindingSchema);
    if (f.min_path) expect_fits(*f.min_path, kFindingSchema);
  }
  return findings;
}

class RunFolderFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/crosscheck-run-folder-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    tmp_ = tmpl;
    // A path a shell would split, unquote or expand if the replay command did not quote it.
    base_ = tmp_ / "my run's \"folder\" $HOME `x`";
    fs::create_directories(base_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!::testing::Test::HasFailure()) fs::remove_all(tmp_, ec);
  }
  fs::path tmp_, base_;
};

TEST_F(RunFolderFiles, FuzzReduceMergeAndBaselineCheckFitTheirSchemas) {
  const fs::path run = base_ / "run";
  // The reduction shares its budget among the buckets and starts none below 8 calls each: 480 leaves
  // room for up to 60 buckets (a run at both layers finds 8 or more in 600 iterations).
  int rc = sh(kBinary + " fuzz --runs 600 --seed 3 --reduce-budget 480 " + adapter_options() + " --out " +
                  shell_quote(run.string()),
              tmp_ / "fuzz.log");
  ASSERT_EQ(rc, 1) << "the planted fault is found: " << slurp(tmp_ / "fuzz.log");
  EXPECT_GT(expect_folder_fits(run), 0u);
  bool minimized = false;
  for (const auto& f : list_finding_files(run / kFindingsDir)) minimized = minimized || f.min_path;
  EXPECT_TRUE(minimized) << "fuzz reduces one finding per bucket at the end";
  EXPECT_TRUE(fs::exists(run / kReportDir / "report.html"));

  // reduce RUN_DIR: the .min.json files it writes.
  rc = sh(kBinary + " reduce " + shell_quote(run.string()) + " --budget 60 " + adapter_options(),
          tmp_ / "reduce.log");
  EXPECT_EQ(rc, 0) << slurp(tmp_ / "reduce.log");
  expect_folder_fits(run);

  // baseline check --json RUN/baseline-check.json, as ci/common.sh runs it.
  rc = sh(kBinary + " baseline check --baseline " + shell_quote(kSource + "/tests/data/baseline/known.json") +
              " --json " + shell_quote((run / kBaselineCheckFile).string()) + " " + shell_quote(run.string()),
          tmp_ / "check.log");
  EXPECT_LE(rc, 1) << slurp(tmp_ / "check.log");
  expect_fits(run / kBaselineCheckFile, kBaselineCheckSchema);
  expect_fits(run / kVerdictFile, kVerdictSchema);

  // Two shards and their merge.
  std::string shard_run = kBinary + " fuzz --runs 400 --seed 5 --deterministic " + adapter_options();
  for (const char* shard : {"0/2", "1/2"}) {
    const fs::path out = base_ / ("shard " + std::string(1, shard[0]));
    rc = sh(shard_run + " --shard " + shard + " --out " + shell_quote(out.string()), tmp_ / "shard.log");
    ASSERT_LE(rc, 1) << slurp(tmp_ / "shard.log");
    expect_folder_fits(out);
  }
  const fs::path merged = base_ / "merged";
  rc = sh(kBinary + " merge " + shell_quote(merged.string()) + " " +
              shell_quote((base_ / "shard 0").string()) + " " + shell_quote((base_ / "shard 1").string()),
          tmp_ / "merge.log");
  ASSERT_EQ(rc, 0) << slurp(tmp_ / "merge.log");
  ASSERT_TRUE(fs::exists(merged / kMergeFile));
  EXPECT_GT(expect_folder_fits(merged), 0u);
  // The summary holds no exit code of its own: the verdict is verdict.json's.
  auto summary = json::parse(slurp(merged / kSummaryFile));
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary.value().find("exitCode"), nullptr);

  // The reports of the merged folder; buckets.jsonl has one line per bucket, each fitting its schema.
  rc = sh(kBinary + " report " + shell_quote(merged.string()), tmp_ / "report.log");
  ASSERT_LE(rc, 1) << slurp(tmp_ / "report.log");
  EXPECT_GT(expect_lines_fit(merged / kReportDir / "buckets.jsonl", kReportBucketSchema), 0u);
  // A merge of a merge reads merge.json back: the runs are counted once.
  const fs::path again = base_ / "merged again";
  rc = sh(kBinary + " merge " + shell_quote(again.string()) + " " + shell_quote(merged.string()) + " " +
              shell_quote((base_ / "shard 1").string()),
          tmp_ / "merge2.log");
  ASSERT_EQ(rc, 0) << slurp(tmp_ / "merge2.log");
  expect_folder_fits(again);
  EXPECT_NE(slurp(tmp_ / "merge2.log").find("(2 runs in merge.json)"), std::string::npos)
      << slurp(tmp_ / "merge2.log");
}

TEST_F(RunFolderFiles, EveryLayerIsOnTheEventLogAndItsEndComesAfterTheLastLayer) {
  // Layer 1 on the in-process adapter, then layer 3 through the stand-in client fake-a, which differs
  // from the reference host on many rows (tests/fake_clients): layer-3 findings are certain.
  const fs::path run = base_ / "run";
  int rc = sh(
      kBinary + " fuzz --runs 300 --seed 4 --reduce-budget 0 --adapters cpp --layers structural,contextual " +
          "--client-config " + shell_quote(kSource + "/tests/fake_clients/clients.json") +
          " --clients fake-a --scenario-batches 2 --scenario-batch 8 --out " + shell_quote(run.string()),
      tmp_ / "fuzz.log");
  ASSERT_EQ(rc, 1) << "fake-a's differences fail the run: " << slurp(tmp_ / "fuzz.log");
  EXPECT_GT(expect_folder_fits(run), 0u);  // events.jsonl included, line by line

  std::vector<json::Value> events;
  {
    std::ifstream in(run / kEventLogFile);
    for (std::string line; std::getline(in, line);) events.push_back(json::parse(line).value());
  }
  auto name = [](const json::Value& e) { return e.find("event")->string_value(); };
  auto has_layer = [](const json::Value& e, const std::string& layer) {
    const json::Value* layers = e.find("layers");
    if (!layers) return false;
    for (const auto& l : layers->items())
      if (l.string_value() == layer) return true;
    return false;
  };
  std::set<std::string> contextual_files;
  std::size_t last_layer3 = 0, end_at = 0, ends = 0, structural_points = 0, contextual_points = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const json::Value& e = events[i];
    if (name(e) == "finding" && e.find("layer")->string_value() == "contextual") {
      contextual_files.insert(e.find("file")->string_value());
      last_layer3 = i;
    }
    if (name(e) == "progress" && has_layer(e, "contextual")) {
      ++contextual_points;
      last_layer3 = i;
    }
    if (name(e) == "progress" && has_layer(e, "structural")) ++structural_points;
    if (name(e) == "end") {
      ++ends;
      end_at = i;
    }
  }
  EXPECT_GT(structural_points, 0u);
  EXPECT_EQ(contextual_points, 2u) << "one progress point per layer-3 batch";
  // Every layer-3 finding file has its event.
  std::set<std::string> on_disk;
  for (const auto& f : list_finding_files(run / kFindingsDir)) {
    auto loaded = read_json_object(f.path);
    if (loaded.find("scenario")) on_disk.insert(std::string(kFindingsDir) + "/" + f.name);
  }
  EXPECT_FALSE(on_disk.empty());
  EXPECT_EQ(contextual_files, on_disk);
  ASSERT_EQ(ends, 1u);
  EXPECT_GT(end_at, last_layer3) << "the end comes after the last layer";
  const json::Value& end = events[end_at];
  EXPECT_TRUE(has_layer(end, "structural") && has_layer(end, "contextual"));
  auto summary = json::parse(slurp(run / kSummaryFile)).value();
  EXPECT_EQ(json::write(*end.find("generated")), json::write(*summary.find("generated")))
      << "the end's totals are the run's, layer 3's rows included";
  EXPECT_EQ(json::write(*end.find("exitCode")), "1");
}

TEST_F(RunFolderFiles, TheReplayCommandRunsThroughAShellForAnyPath) {
  const fs::path run = base_ / "run";
  int rc = sh(kBinary + " fuzz --runs 300 --seed 3 --reduce-budget 0 " + adapter_options() + " --out " +
                  shell_quote(run.string()),
              tmp_ / "fuzz.log");
  ASSERT_EQ(rc, 1) << slurp(tmp_ / "fuzz.log");
  auto listed = list_finding_files(run / kFindingsDir);
  ASSERT_FALSE(listed.empty());
  json::Value finding = read_json_object(listed.front().path);
  const json::Value* replay = finding.find("replay");
  ASSERT_TRUE(replay && replay->is_string());
  EXPECT_EQ(replay->string_value(), replay_command(listed.front().path));
  // The stored command as it is, crosscheck found on PATH, the same adapters as the run.
  const std::string command = "PATH=" + shell_quote(std::string(CROSSCHECK_BINARY_DIR)) + ":\"$PATH\"; " +
                              replay->string_value() + " " + adapter_options();
  rc = sh("sh -c " + shell_quote(command), tmp_ / "replay.log");
  const std::string log = slurp(tmp_ / "replay.log");
  EXPECT_EQ(rc, 1) << "the finding still diverges when replayed: " << log;
  EXPECT_NE(log.find(listed.front().name), std::string::npos) << log;
}

TEST_F(RunFolderFiles, AnotherFormatVersionIsRefusedNamingFilePointerAndVersion) {
  const fs::path run = base_ / "run";
  ASSERT_EQ(sh(kBinary + " fuzz --runs 300 --seed 3 --reduce-budget 0 " + adapter_options() + " --out " +
                   shell_quote(run.string()),
               tmp_ / "fuzz.log"),
            1);
  // A summary of a future version: the report refuses it, and nothing in the folder changes.
  std::string summary = slurp(run / kSummaryFile);
  std::string future = summary;
  future.replace(future.find(kSummaryFormat), std::string(kSummaryFormat).size(), "crosscheck-summary/2");
  std::ofstream(run / kSummaryFile, std::ios::binary) << future;
  fs::remove_all(run / kReportDir);
  int rc = sh(kBinary + " report " + shell_quote(run.string()), tmp_ / "report.log");
  std::string log = slurp(tmp_ / "report.log");
  EXPECT_EQ(rc, 2) << log;
  EXPECT_NE(log.find((run / kSummaryFile).string()), std::string::npos) << log;
  EXPECT_NE(log.find("/format"), std::string::npos) << log;
  EXPECT_NE(log.find(kSummaryFormat), std::string::npos) << log;
  EXPECT_FALSE(fs::exists(run / kReportDir)) << "a refused folder is not written to";
  std::ofstream(run / kSummaryFile, std::ios::binary) << summary;

  // A finding that does not fit its schema: exit 2 naming the file, the pointer and the expectation.
  auto listed = list_finding_files(run / kFindingsDir);
  ASSERT_FALSE(listed.empty());
  std::string text = slurp(listed.front().path);
  std::size_t at = text.find("\"outcome\": \"");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 12, "\"outcome\": 7, \"was\": \"");
  std::ofstream(listed.front().path, std::ios::binary) << text;
  rc = sh(kBinary + " report " + shell_quote(run.string()), tmp_ / "report.log");
  log = slurp(tmp_ / "report.log");
  EXPECT_EQ(rc, 2) << log;
  EXPECT_NE(log.find(listed.front().path), std::string::npos) << log;
  EXPECT_NE(log.find("/results/0/"), std::string::npos) << log;
  EXPECT_EQ(sh(kBinary + " verdict " + shell_quote(run.string()), tmp_ / "verdict.log"), 1)
      << "the recorded verdict is read, not decided again: " << slurp(tmp_ / "verdict.log");
}

}  // namespace
}  // namespace crosscheck::run
