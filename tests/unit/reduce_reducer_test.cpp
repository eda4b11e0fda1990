// Tests of the reducer on divergences planted by tests/fake_adapters/needle_adapter.py, next to the
// in-process C++ decoder on the small test schema (tests/data/schemas/mini): the bucket is kept, the
// goal (1.5x a hand-minimal witness) is reached within the budget, non-JSON input is cut bytewise,
// the original file is never touched, and bad input is refused with the file named.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "json/write.hpp"
#include "layers/structural/input_traits.hpp"
#include "reduce/reduce_files.hpp"
#include "reduce/reducer.hpp"
#include "run/event_log.hpp"
#include "run/finding_files.hpp"
#include "schema/loader.hpp"

namespace crosscheck::reduce {
namespace {

namespace fs = std::filesystem;

const std::string kRoot = "mini_request";
const std::string kNeedleAdapter =
    std::string(CROSSCHECK_SOURCE_DIR) + "/tests/fake_adapters/needle_adapter.py";
// What a person would write: the smallest valid request with a needle, at the top, in the event, or in
// the very slot of the big payload when buckets tell slots apart (the smallest in the bucket is the goal).
const std::vector<std::string> kHandMinimal = {
    R"({"jsonrpc":"2.0","id":"","method":"mini/request","needle":0})",
    R"({"jsonrpc":"2.0","id":"","method":"mini/request","params":{"event":{"type":"ping","needle":0}}})",
    R"({"jsonrpc":"2.0","id":"","method":"mini/request","params":{"event":{"type":"ping","x":{"l":[{"d":{"e":{"needle":0}}}]}}}})"};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A few KB of valid request around a needle four levels below the event, with the noise a
/// generator leaves: unknown members, arrays, long strings, numbers of every spelling.
std::string big_needle_payload() {
  std::string junk_items;
  for (int i = 0; i < 40; ++i) {
    if (i) junk_items += ",";
    junk_items += R"({"line":)" + std::to_string(i * 7919) + R"(,"text":"some words that fill line )" +
                  std::to_string(i) + R"(","ratio":-12.5e-3,"ok":true,"tags":["a","b",null]})";
  }
  return R"({"jsonrpc":"2.0","id":"evt_7f21-0123456789","method":"mini/request","extra":{"lines":[)" +
         junk_items +
         R"(]},"params":{"protocolVersion":"draft","event":{"type":"ping","count":123456,"x-vendor":{"list":[1,2,3,{"deep":{"deeper":{"needle":{"payload":[)" +
         junk_items + R"(]}},"other":"zzzzzzzzzzzzzzzzzzzz"}}]},"note":"trailing member"},"more":[)" +
         junk_items + "]}}";
}

class ReducerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto ir = schema::load_schema(std::string(CROSSCHECK_TEST_SCHEMAS) + "/mini");
    ASSERT_TRUE(ir.ok()) << ir.error().message();
    ir_ = std::make_shared<const schema::Ir>(std::move(ir).value());
    exec::AdapterConfig cpp;
    cpp.spec.name = "cpp";
    exec::AdapterConfig planted;
    planted.spec.name = "planted";
    planted.spec.argv = {"python3", kNeedleAdapter, "--marker", "BOOM"};
    exec::PoolOptions pool;
    pool.deadline = std::chrono::milliseconds(5000);
    set_ = new exec::ImplementationSet(ir_, {cpp, planted}, pool);
    ASSERT_TRUE(set_->failures().empty()) << set_->failures().front().message;
  }
  static void TearDownTestSuite() {
    delete set_;
    set_ = nullptr;
  }

  /// A finding for `input` as run or fuzz would write it.
  static run::Finding finding_for(const std::string& input) {
    auto r = set_->run({{kRoot, input}}).front();
    run::Finding f;
    f.root = kRoot;
    f.input = input;
    f.divergences = r.divergences;
    f.results = r.results;
    f.traits = layers::structural::analyse_input(input).names();
    f.source = "reduce_reducer_test";
    return f;
  }

  static std::string bucket_of(const run::Finding& f, core::DivergenceClass cls) {
    for (const auto& d : f.divergences) {
      if (d.cls == cls) return d.bucket;
    }
    ADD_FAILURE() << "no divergence of class " << core::class_name(cls);
    return "";
  }

  static bool in_bucket(const std::string& input, const std::string& bucket) {
    auto results = set_->run({{kRoot, input}});
    for (const auto& d : results.front().divergences) {
      if (d.bucket == bucket) return true;
    }
    return false;
  }

  static fs::path temp_run(const std::string& name) {
    fs::path p = fs::temp_directory_path() / ("crosscheck-reduce-" + name + "-" + std::to_string(getpid()));
    fs::remove_all(p);
    fs::create_directories(p / "findings");
    return p;
  }

  static std::string write_finding(const fs::path& run, const run::Finding& f) {
    run::FindingStore store((run / "findings").string());
    return store.write(f);
  }

  static std::shared_ptr<const schema::Ir> ir_;
  static exec::ImplementationSet* set_;
};

std::shared_ptr<const schema::Ir> ReducerTest::ir_;
exec::ImplementationSet* ReducerTest::set_ = nullptr;

TEST_F(ReducerTest, NeedleComesDownToTheHandMinimalWitnessInTheSameBucket) {
  const std::string input = big_needle_payload();
  ASSERT_GT(input.size(), 4000u);
  run::Finding f = finding_for(input);
  const std::string bucket = bucket_of(f, core::DivergenceClass::kAcceptance);
  std::size_t goal = 0;
  for (const auto& w : kHandMinimal) {
    if (!goal && in_bucket(w, bucket)) goal = w.size();
  }
  ASSERT_GT(goal, 0u) << "a hand-minimal witness must itself be in the bucket";
  for (bool screening : {true, false}) {
    SCOPED_TRACE(screening ? "with in-process screening" : "adapters only");
    ReduceOptions o;
    o.budget = 2000;
    o.oracle = screening ? ir_.get() : nullptr;
    ReduceResult r = reduce(f, bucket, *set_, o);
    ASSERT_TRUE(r.reproduced);
    EXPECT_EQ(r.mode, "json");
    EXPECT_EQ(r.oracle_used, screening);
    EXPECT_LE(r.calls, 2000u);
    EXPECT_LE(static_cast<double>(r.input.size()), 1.5 * static_cast<double>(goal)) << r.input;
    EXPECT_NE(r.input.find("\"needle\""), std::string::npos) << r.input;
    EXPECT_TRUE(in_bucket(r.input, bucket)) << r.input;
    bool reported = false;
    for (const auto& d : r.results.divergences) reported = reported || d.bucket == bucket;
    EXPECT_TRUE(reported) << "the result's own answers must show the bucket";
    if (screening) {
      EXPECT_GT(r.screened, 0u);
    }
  }
}

TEST_F(ReducerTest, NonJsonInputIsCutBytewise) {
  std::string input;
  for (int i = 0; i < 30; ++i) input += "{{not json at all " + std::to_string(i) + " ]]";
  input.insert(input.size() / 2, "BOOM");
  input += " tail";
  run::Finding f = finding_for(input);
  const std::string bucket = bucket_of(f, core::DivergenceClass::kSdkError);
  ReduceOptions o;
  o.oracle = ir_.get();
  ReduceResult r = reduce(f, bucket, *set_, o);
  ASSERT_TRUE(r.reproduced);
  EXPECT_EQ(r.mode, "bytes");
  // "BOOM" alone is not JSON either, so it is the minimum: the fault is the marker and nothing else.
  EXPECT_EQ(r.input, "BOOM");
  EXPECT_LE(r.calls, 2000u);
}

TEST_F(ReducerTest, BudgetStopsWithTheBestSoFar) {
  run::Finding f = finding_for(big_needle_payload());
  const std::string bucket = bucket_of(f, core::DivergenceClass::kAcceptance);
  ReduceOptions o;
  o.budget = 60;
  ReduceResult r = reduce(f, bucket, *set_, o);
  ASSERT_TRUE(r.reproduced);
  EXPECT_TRUE(r.budget_exhausted);
  EXPECT_LE(r.calls, 60u);
  EXPECT_LT(r.input.size(), f.input.size());
  EXPECT_TRUE(in_bucket(r.input, bucket));
}

TEST_F(ReducerTest, WritesMinBesideTheUntouchedOriginalAndLogsTheEvent) {
  fs::path run = temp_run("file");
  std::ofstream(run / run::kEventLogFile) << R"({"t":5,"event":"start"})"
                                          << "\n";
  const std::string path = write_finding(run, finding_for(big_needle_payload()));
  const std::string before = slurp(path);
  ReduceOptions o;
  o.oracle = ir_.get();
  auto r = reduce_finding_file(path, std::nullopt, *set_, o);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(slurp(path), before) << "the original finding must never change";
  EXPECT_TRUE(r.value().written);
  EXPECT_EQ(r.value().min_path, run::minimized_path_for(path));
  auto min = run::FindingStore::load(r.value().min_path);
  ASSERT_TRUE(min.ok()) << min.error();
  ASSERT_TRUE(min.value().reduction.has_value());
  EXPECT_EQ(min.value().reduction->from, fs::path(path).filename().string());
  EXPECT_EQ(min.value().reduction->bytes_before, big_needle_payload().size());
  EXPECT_EQ(min.value().reduction->bytes_after, min.value().input.size());
  EXPECT_EQ(min.value().reduction->calls, r.value().result.calls);
  EXPECT_EQ(min.value().replay, "crosscheck replay " + r.value().min_path);
  bool same_bucket = false;
  for (const auto& d : min.value().divergences) same_bucket = same_bucket || d.bucket == r.value().bucket;
  EXPECT_TRUE(same_bucket);
  auto events = run::read_events((run / run::kEventLogFile).string());
  ASSERT_EQ(events.events.size(), 2u);
  const auto& e = events.events.back();
  EXPECT_EQ(e.name, "reduced");
  EXPECT_GE(e.t, 5.0);
  const json::Value* file = e.fields.find("file");
  const json::Value* minimized = e.fields.find("minimized");
  ASSERT_TRUE(file && minimized);
  EXPECT_EQ(file->string_value(), "findings/" + fs::path(path).filename().string());
  EXPECT_EQ(minimized->string_value(),
            "findings/" + fs::path(run::minimized_path_for(path)).filename().string());
  // A second run does not replace it with something no smaller.
  auto again = reduce_finding_file(path, std::nullopt, *set_, o);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_FALSE(again.value().written);
  fs::remove_all(run);
}

TEST_F(ReducerTest, BadInputNamesTheFileAndWritesNothing) {
  fs::path run = temp_run("bad");
  ReduceOptions o;
  auto missing = reduce_finding_file((run / "findings/none.json").string(), std::nullopt, *set_, o);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("none.json"), std::string::npos);

  fs::path garbage = run / "findings/garbage.json";
  std::ofstream(garbage) << "{not a finding";
  auto not_json = reduce_finding_file(garbage.string(), std::nullopt, *set_, o);
  ASSERT_FALSE(not_json.ok());
  EXPECT_NE(not_json.error().find("garbage.json: not JSON"), std::string::npos) << not_json.error();

  const std::string good = write_finding(run, finding_for(big_needle_payload()));
  std::string text = slurp(good);
  text.replace(text.find("crosscheck-finding/1"), 20, "crosscheck-finding/7");
  fs::path other = run / "findings/other-version.json";
  std::ofstream(other) << text;
  auto version = reduce_finding_file(other.string(), std::nullopt, *set_, o);
  ASSERT_FALSE(version.ok());
  EXPECT_NE(version.error().find("other-version.json"), std::string::npos);
  EXPECT_NE(version.error().find("crosscheck-finding/7"), std::string::npos) << version.error();

  auto bucket = reduce_finding_file(good, std::string("00000000deadbeef"), *set_, o);
  ASSERT_FALSE(bucket.ok());
  EXPECT_NE(bucket.error().find("00000000deadbeef"), std::string::npos);
  EXPECT_NE(bucket.error().find("its buckets"), std::string::npos) << bucket.error();

  // A finding whose divergence no longer reproduces (the needle is gone from the input).
  run::Finding stale = finding_for(big_needle_payload());
  std::string plain = big_needle_payload();
  plain.replace(plain.find("\"needle\""), 8, "\"hay\"");
  stale.input = plain;
  const std::string stale_path = write_finding(run, stale);
  auto gone = reduce_finding_file(stale_path, std::nullopt, *set_, o);
  ASSERT_FALSE(gone.ok());
  EXPECT_NE(gone.error().find("does not reproduce"), std::string::npos) << gone.error();
  EXPECT_NE(gone.error().find(fs::path(stale_path).filename().string()), std::string::npos);
  for (const auto& e : fs::directory_iterator(run / "findings")) {
    EXPECT_FALSE(run::is_minimized_name(e.path().string()))
        << "nothing may be written for bad input: " << e.path();
  }
  fs::remove_all(run);
}

TEST_F(ReducerTest, RunFolderReducesTheSmallestFindingOfEachBucketOnce) {
  fs::path run = temp_run("folder");
  const std::string big = write_finding(run, finding_for(big_needle_payload()));
  // The needle in the same slot as in the big payload: the same bucket however fine buckets are.
  std::string smaller_input =
      R"({"jsonrpc":"2.0","id":"abcdef","method":"mini/request","params":{"event":{"type":"ping","x-vendor":{"list":[{"deep":{"deeper":{"needle":[1,2,3]}}}]}}}})";
  const std::string small = write_finding(run, finding_for(smaller_input));
  const std::string marker = write_finding(run, finding_for("xxxxxxxxxxxxxxxxxxBOOMyyyyyyyyyyyyy"));
  RunReduceOptions o;
  o.total_budget = 600;
  o.base.oracle = ir_.get();
  std::ostringstream log;
  RunReduction r = reduce_run_folder(run.string(), *set_, o, log);
  EXPECT_LE(r.calls, 600u);
  EXPECT_FALSE(fs::exists(run::minimized_path_for(big))) << "the bigger finding of a bucket is not reduced";
  EXPECT_TRUE(fs::exists(run::minimized_path_for(small))) << log.str();
  EXPECT_TRUE(fs::exists(run::minimized_path_for(marker))) << log.str();
  auto m = run::FindingStore::load(run::minimized_path_for(marker));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m.value().input, "BOOM");
  // Everything is covered now: a second pass has nothing to do.
  RunReduction again = reduce_run_folder(run.string(), *set_, o, log);
  EXPECT_TRUE(again.reduced.empty());
  EXPECT_EQ(again.calls, 0u);
  fs::remove_all(run);
}

TEST(FindingReduction, RoundTripsAndOldFilesStillLoad) {
  run::Finding f;
  f.root = "effect";
  f.input = "{}";
  f.reduction = run::Reduction{"diverge-abc.json", 321, 10240, 87};
  auto back = run::finding_from_json(run::finding_to_json(f));
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_TRUE(back.value().reduction.has_value());
  EXPECT_EQ(back.value().reduction->from, "diverge-abc.json");
  EXPECT_EQ(back.value().reduction->calls, 321u);
  EXPECT_EQ(back.value().reduction->bytes_before, 10240u);
  EXPECT_EQ(back.value().reduction->bytes_after, 87u);
  f.reduction.reset();
  json::Value old = run::finding_to_json(f);
  EXPECT_EQ(old.find("reduction"), nullptr) << "an original finding carries no reduction member";
  auto loaded = run::finding_from_json(old);
  ASSERT_TRUE(loaded.ok());
  EXPECT_FALSE(loaded.value().reduction.has_value());
  old.add("reduction", json::Value::string("yes"));
  auto bad = run::finding_from_json(old);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("/reduction: "), std::string::npos) << bad.error();
}

TEST(MinPath, BesideTheOriginal) {
  EXPECT_EQ(run::minimized_path_for("out/findings/diverge-ab.json"), "out/findings/diverge-ab.min.json");
  EXPECT_EQ(run::minimized_path_for("out/findings/diverge-ab.min.json"), "out/findings/diverge-ab.min.json");
  EXPECT_TRUE(run::is_minimized_name("x.min.json"));
  EXPECT_FALSE(run::is_minimized_name("x.json"));
  EXPECT_EQ(printable(std::string("a\n\xff\"", 4)), "a\\n\\xff\"");
}

}  // namespace
}  // namespace crosscheck::reduce
