// Tests of the fuzz campaign (src/campaign/campaign.cpp) against tests/fake_adapters/needle_adapter.py
// (standalone: it accepts any JSON text, so every input the C++ decoder rejects diverges) on the small
// test schema: the on_finding callback is told of every finding file as it is written, in the order
// events.jsonl logs them, and a stop_when on it ends the run at its first finding.
#include "campaign/campaign.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>

#include "run/event_log.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "schema/loader.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

const std::string kNeedleAdapter =
    std::string(CROSSCHECK_SOURCE_DIR) + "/tests/fake_adapters/needle_adapter.py";

struct Seen {
  std::string file, bucket, cls, input;
  bool new_bucket = false, implementation_defined = false, on_disk = false;
  double seconds = 0;
};

class CampaignTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ir = schema::load_schema(std::string(CROSSCHECK_TEST_SCHEMAS) + "/mini");
    ASSERT_TRUE(ir.ok()) << ir.error().message();
    ir_ = std::make_shared<const schema::Ir>(std::move(ir).value());
    exec::AdapterConfig cpp;
    cpp.spec.name = "cpp";
    exec::AdapterConfig planted;
    planted.spec.name = "planted";
    planted.spec.argv = {"python3", kNeedleAdapter};
    exec::PoolOptions pool;
    pool.deadline = std::chrono::milliseconds(5000);
    set_ = std::make_unique<exec::ImplementationSet>(ir_, std::vector{cpp, planted}, pool);
    ASSERT_TRUE(set_->failures().empty()) << set_->failures().front().message;
    out_ = fs::temp_directory_path() / ("crosscheck-campaign-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(out_);
  }
  void TearDown() override { fs::remove_all(out_); }

  CampaignOptions options(std::uint64_t runs) {
    CampaignOptions o;
    o.runs = runs;
    o.seed = 11;
    o.out = out_.string();
    o.batch = 32;
    o.deterministic = true;  // every input is sent: the findings depend on the iterations alone
    o.adapters_fingerprint = "cpp,planted";
    o.on_finding = [this](const WrittenFinding& w) {
      Seen s;
      s.file = w.file;
      s.bucket = w.divergence.bucket;
      s.cls = core::class_name(w.divergence.cls);
      s.input = w.finding.input;
      s.new_bucket = w.new_bucket;
      s.implementation_defined = w.implementation_defined;
      s.on_disk = fs::exists(w.file);
      s.seconds = w.seconds;
      seen_.push_back(std::move(s));
      found_ = true;  // seen_ is the sender thread's until the run ends
    };
    return o;
  }

  std::shared_ptr<const schema::Ir> ir_;
  std::unique_ptr<exec::ImplementationSet> set_;
  fs::path out_;
  std::vector<Seen> seen_;
  std::atomic<bool> found_{false};
};

TEST_F(CampaignTest, OnFindingIsToldOfEveryFindingFileAsItIsWritten) {
  std::ostringstream log;
  CampaignSummary summary = run_campaign(*ir_, *set_, options(600), log);
  ASSERT_GT(summary.divergent_inputs, 0u) << log.str();
  ASSERT_FALSE(seen_.empty()) << log.str();

  // Each file was on disk when the callback ran, holds the input it was told of, and findings/ holds
  // exactly the files it was told of.
  std::set<std::string> told;
  for (const auto& s : seen_) {
    EXPECT_TRUE(s.on_disk) << s.file;
    EXPECT_EQ(fs::path(s.file).parent_path(), out_ / "findings");
    auto loaded = run::FindingStore::load(s.file);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(loaded.value().input, s.input);
    told.insert(s.file);
  }
  std::set<std::string> on_disk;
  for (const auto& e : fs::directory_iterator(out_ / "findings")) on_disk.insert(e.path().string());
  EXPECT_EQ(on_disk, told);

  // events.jsonl logs the same findings in the same order, with the same bucket, class and labels,
  // and the callback's time is the log's clock.
  auto events = run::read_events((out_ / run::kEventLogFile).string());
  std::vector<const run::Event*> logged;
  for (const auto& e : events.events)
    if (e.name == "finding") logged.push_back(&e);
  ASSERT_EQ(logged.size(), seen_.size());
  std::size_t new_buckets = 0;
  for (std::size_t i = 0; i < seen_.size(); ++i) {
    const json::Value& f = logged[i]->fields;
    EXPECT_EQ(out_ / f.find("file")->string_value(), fs::path(seen_[i].file));
    EXPECT_EQ(f.find("bucket")->string_value(), seen_[i].bucket);
    EXPECT_EQ(f.find("class")->string_value(), seen_[i].cls);
    EXPECT_EQ(f.find("newBucket")->as_bool(), seen_[i].new_bucket);
    EXPECT_EQ(f.find("implementationDefined")->as_bool(), seen_[i].implementation_defined);
    EXPECT_GE(seen_[i].seconds + 0.001, logged[i]->t);
    EXPECT_LT(seen_[i].seconds - logged[i]->t, 1.0);
    if (i > 0) {
      EXPECT_GE(seen_[i].seconds, seen_[i - 1].seconds);
    }
    new_buckets += seen_[i].new_bucket;
  }
  EXPECT_GE(new_buckets, 1u);
  EXPECT_LE(new_buckets, summary.buckets);
}

TEST_F(CampaignTest, StopWhenOnTheCallbackEndsTheRunAtItsFirstFinding) {
  CampaignOptions o = options(1'000'000);
  o.stop_when = [this] { return found_.load(); };
  std::ostringstream log;
  CampaignSummary summary = run_campaign(*ir_, *set_, o, log);
  ASSERT_FALSE(seen_.empty()) << log.str();
  EXPECT_LT(summary.generated, 1'000'000u);
  // The batch in flight completes, nothing after it is sent.
  EXPECT_LE(seen_.size(), o.batch);
}

}  // namespace
}  // namespace crosscheck::campaign
