// A layer registered at run time (tests/dummy_layer, defined outside src/ as a fourth layer would be)
// is carried by fuzz, merge, report and verdict with no other change: they iterate over the registry.
#include "fuzz_run/fuzz_run.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "baseline/classify.hpp"
#include "campaign/merge.hpp"
#include "dummy_layer/dummy_layer.hpp"
#include "exec/implementation_set.hpp"
#include "json/parse.hpp"
#include "layers/registry/layer_registry.hpp"
#include "report/writers.hpp"
#include "run/summary_file.hpp"
#include "schema/loader.hpp"
#include "util/file.hpp"

namespace crosscheck {
namespace {

namespace fs = std::filesystem;

std::string text_of(const fs::path& p) { return read_file_bytes(p).value_or(""); }

class LayerPlugIn : public ::testing::Test {
 protected:
  void SetUp() override {
    layers::register_layer(dummy_layer::make_dummy_layer());
    dir_ = fs::temp_directory_path() / ("crosscheck-layer-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override {
    layers::unregister_layer(dummy_layer::kName);
    fs::remove_all(dir_);
  }

  /// `crosscheck fuzz --layers dummy --deterministic --shard I/2` on the in-process C++ reference.
  int fuzz(const fs::path& out, const std::string& shard) {
    fuzz_run::FuzzOptions o;
    o.layers = dummy_layer::kName;
    o.runs = 10;
    o.seed = 5;
    o.deterministic = true;
    o.shard = shard;
    o.out = out.string();
    const std::string schema = std::string(CROSSCHECK_TEST_SCHEMAS) + "/mini";
    o.load_schema = [schema] { return std::move(schema::load_schema(schema)).value(); };
    o.start_adapters = [schema] {
      auto ir = std::make_shared<const schema::Ir>(std::move(schema::load_schema(schema)).value());
      exec::AdapterConfig cpp;
      cpp.spec.name = "cpp";
      return std::make_unique<exec::ImplementationSet>(ir, std::vector{cpp}, exec::PoolOptions{});
    };
    return fuzz_run::run_fuzz(o);
  }

  fs::path dir_;
};

TEST_F(LayerPlugIn, TheRegistryListsTheBuiltInLayersThenTheRegisteredOne) {
  std::vector<std::string> names;
  for (const layers::Layer* l : layers::registered_layers()) names.push_back(l->info().name);
  EXPECT_EQ(names, (std::vector<std::string>{"structural", "canonical", "contextual", "dummy"}));
  EXPECT_EQ(layers::layer_names(), "structural, canonical, contextual, dummy");
  EXPECT_EQ(layers::find_layer("dummy")->info().number, 4);
  EXPECT_EQ(layers::find_layer("nope"), nullptr);
  EXPECT_THROW(layers::register_layer(dummy_layer::make_dummy_layer()), std::logic_error);
}

// The run-folder formats take any registered layer's name: every layer's name meets the pattern the
// schemas give the "layer" members (so a new layer touches no schema).
TEST_F(LayerPlugIn, EveryLayerNameMeetsTheSchemasLayerPattern) {
  for (const char* file : {"finding.schema.json", "report-bucket.schema.json", "run-event.schema.json"}) {
    const std::string text = text_of(fs::path(CROSSCHECK_SOURCE_DIR) / "schemas" / file);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, std::regex(R"re("pattern": "(\^\[a-z\][^"]*)")re"))) << file;
    const std::regex pattern(m[1].str());
    for (const layers::Layer* l : layers::registered_layers())
      EXPECT_TRUE(std::regex_match(l->info().name, pattern)) << file << ": " << l->info().name;
  }
}

TEST_F(LayerPlugIn, FuzzMergeReportAndVerdictCarryARegisteredLayer) {
  // fuzz: each shard runs the layer's batches; its findings, events, summary and verdict are the run's.
  for (const std::string shard : {"0/2", "1/2"}) {
    const fs::path out = dir_ / ("shard-" + shard.substr(0, 1));
    EXPECT_EQ(fuzz(out, shard), 1) << "a new failing bucket of the dummy layer fails the run";
    const std::string events = text_of(out / "events.jsonl");
    EXPECT_NE(events.find(R"("layer":"dummy")"), std::string::npos) << events;
    EXPECT_NE(events.find(R"("layers":["dummy"])"), std::string::npos) << events;
    const std::size_t end = events.rfind(R"("event":"end")");
    ASSERT_NE(end, std::string::npos) << events;
    EXPECT_GT(end, events.rfind(R"("layer":"dummy")")) << "the end comes after the layer's last event";
    auto summary = run::read_summary(out.string());
    ASSERT_TRUE(summary.has_value());
    EXPECT_EQ(summary->by_layer.at("dummy"), 1u);
    EXPECT_EQ(summary->layers.at("dummy").inputs, 1u);
    EXPECT_NE(text_of(out / "verdict.json").find("\"fails\": true"), std::string::npos)
        << text_of(out / "verdict.json");
    EXPECT_NE(text_of(out / "report" / "buckets.jsonl").find(R"("layer":"dummy")"), std::string::npos);
    EXPECT_EQ(text_of(out / dummy_layer::kOwnFile), R"({"batches":1})");
  }
  // merge: the shards' findings and counts join; the layer's own file merges through its hook.
  campaign::MergeOptions m;
  m.out = (dir_ / "merged").string();
  m.dirs = {(dir_ / "shard-0").string(), (dir_ / "shard-1").string()};
  std::ostringstream log;
  campaign::merge_runs(m, log);
  auto merged = run::read_summary(m.out);
  ASSERT_TRUE(merged.has_value());
  EXPECT_EQ(merged->by_layer.at("dummy"), 2u);
  EXPECT_EQ(text_of(fs::path(m.out) / dummy_layer::kOwnFile), R"({"batches":2})");
  // report and verdict on the merged folder.
  report::write_run_reports(m.out, log);
  EXPECT_NE(text_of(fs::path(m.out) / "report" / "buckets.jsonl").find(R"("layer":"dummy")"),
            std::string::npos);
  const auto judged = baseline::judge_run_folder(nullptr, m.out, false, "merge");
  EXPECT_EQ(judged.verdict(false, std::nullopt).exit_code(), 1);
}

}  // namespace
}  // namespace crosscheck
