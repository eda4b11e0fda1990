// Tests of `crosscheck merge` (src/campaign/merge.cpp) on small hand-made run folders: what the merged
// summary.json says about the runs it joined, and the findings it carries over.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "campaign/merge.hpp"
#include "json/parse.hpp"
#include "run/finding_file.hpp"
#include "run/finding_files.hpp"
#include "run/replay.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

class MergeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crosscheck-merge-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  /// A finished shard: run.json and a summary.json whose bucketRoots is given (no findings needed).
  fs::path shard(const std::string& name, int index, const std::string& bucket_roots) {
    fs::path d = dir_ / name;
    write(d / "run.json", "{\"format\":\"crosscheck-fuzz/1\",\"seed\":5,\"shard\":\"" +
                              std::to_string(index) +
                              "/2\",\"roots\":[],\"implementations\":\"cpp,x\",\"schema\":\"abc\"}\n");
    write(d / "summary.json",
          "{\"format\":\"crosscheck-summary/1\",\"generated\":10,\"sent\":4,"
          "\"divergentInputs\":2,\"contractInputs\":2,\"buckets\":1,\"byClass\":{},\"byRoot\":{},"
          "\"byImplementation\":{},\"bucketRoots\":" +
              bucket_roots + "}\n");
    fs::create_directories(d / "findings");
    return d;
  }
  json::Value summary(const fs::path& d) {
    std::ifstream in(d / "summary.json");
    std::stringstream ss;
    ss << in.rdbuf();
    auto parsed = json::parse(ss.str());
    EXPECT_TRUE(parsed.ok());
    return std::move(parsed.value());
  }
  static std::set<std::string> roots_of(const json::Value& sum, const std::string& bucket) {
    std::set<std::string> out;
    const json::Value* br = sum.find("bucketRoots");
    const json::Value* list = br && br->is_object() ? br->find(bucket) : nullptr;
    if (list && list->is_array())
      for (const auto& r : list->items()) out.insert(r.string_value());
    return out;
  }

  fs::path dir_;
};

TEST_F(MergeTest, BucketRootsAreTheUnionOverEveryShard) {
  // Bucket aaaa was seen on effect by shard 0 and on event by shard 1; bbbb only by shard 1.
  fs::path s0 = shard("s0", 0, "{\"aaaa\":[\"effect\"]}");
  fs::path s1 = shard("s1", 1, "{\"aaaa\":[\"event\"],\"bbbb\":[\"capabilities\"]}");
  std::ostringstream log;
  MergeOptions o;
  o.out = (dir_ / "merged").string();
  o.dirs = {s0.string(), s1.string()};
  merge_runs(o, log);
  json::Value sum = summary(dir_ / "merged");
  EXPECT_EQ(roots_of(sum, "aaaa"), (std::set<std::string>{"effect", "event"}));
  EXPECT_EQ(roots_of(sum, "bbbb"), (std::set<std::string>{"capabilities"}));

  // A later shard merged into the merge adds its roots too; nothing is lost.
  fs::path s2 = shard("s2", 0, "{\"aaaa\":[\"intercept_request\"]}");
  write(s2 / "run.json",
        "{\"format\":\"crosscheck-fuzz/1\",\"seed\":6,\"shard\":\"0/2\",\"roots\":[],\"implementations\":"
        "\"cpp,x\",\"schema\":\"abc\"}\n");
  o.dirs = {s2.string()};
  merge_runs(o, log);
  sum = summary(dir_ / "merged");
  EXPECT_EQ(roots_of(sum, "aaaa"), (std::set<std::string>{"effect", "event", "intercept_request"}));
  EXPECT_EQ(roots_of(sum, "bbbb"), (std::set<std::string>{"capabilities"}));
}

TEST_F(MergeTest, AMinimizedFindingWhoseOriginalIsGoneIsMergedAsTheFindingWithAQuotedReplay) {
  fs::path s0 = shard("s0", 0, "{}");
  run::Finding f;
  f.root = "effect";
  f.input = "{\"kind\":1}";
  f.source = "fuzz iteration 4";
  core::Divergence d;
  d.cls = core::DivergenceClass::kAcceptance;
  d.implementations = {"cpp", "x"};
  d.bucket = "cccc";
  d.signature = "acceptance|x";
  f.divergences.push_back(d);
  core::ImplResult cpp, x;
  cpp.implementation = "cpp";
  cpp.outcome = core::Outcome::kRejected;
  x.implementation = "x";
  x.outcome = core::Outcome::kAccepted;
  f.results = {cpp, x};
  run::FindingStore store((s0 / "findings").string());
  const fs::path original = store.write(f);
  const fs::path minimized = run::minimized_path_for(original.string());
  fs::rename(original, minimized);  // the original removed by hand: the .min.json stands for itself
  std::ostringstream log;
  MergeOptions o;
  o.out = (dir_ / "merged folder 'x'").string();
  o.dirs = {s0.string()};
  MergeResult r = merge_runs(o, log);
  EXPECT_EQ(r.findings, 1u) << log.str();
  const fs::path copied = fs::path(o.out) / "findings" / minimized.filename();
  ASSERT_TRUE(fs::exists(copied)) << "nothing found is lost";
  auto loaded = run::FindingStore::load(copied.string());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded.value().replay, run::replay_command(copied.string()));
  EXPECT_NE(loaded.value().replay.find("'"), std::string::npos) << "the path is quoted for a shell";
  EXPECT_EQ(roots_of(summary(fs::path(o.out)), "cccc"), (std::set<std::string>{"effect"}));
}

}  // namespace
}  // namespace crosscheck::campaign
