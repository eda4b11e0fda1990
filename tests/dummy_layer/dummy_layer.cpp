// dummy_layer.cpp: see dummy_layer.hpp.
#include "dummy_layer/dummy_layer.hpp"

#include <filesystem>
#include <string>

#include "json/parse.hpp"
#include "json/write.hpp"
#include "run/finding_file.hpp"
#include "run/finding_files.hpp"
#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "run/run_events.hpp"
#include "run/summary_file.hpp"
#include "schema/sha256.hpp"
#include "util/file.hpp"

namespace crosscheck::dummy_layer {
namespace {

namespace fs = std::filesystem;

std::uint64_t batches_in(const std::string& folder) {
  const fs::path file = fs::path(folder) / kOwnFile;
  if (!fs::exists(file)) return 0;
  auto bytes = read_file_bytes(file);
  if (!bytes) return 0;
  auto v = json::parse(*bytes);
  return v.ok() && v.value().find("batches") ? std::stoull(v.value().find("batches")->number_text()) : 0;
}

void write_batches(const std::string& folder, std::uint64_t n) {
  json::Value v = json::Value::object();
  v.add("batches", json::Value::number(std::to_string(n)));
  run::write_file_atomically((fs::path(folder) / kOwnFile).string(), json::write(v));
}

run::Finding probe_finding(std::uint64_t batch) {
  run::Finding f;
  f.root = "effect";
  f.input = "{\"dummy\":" + std::to_string(batch) + "}";
  f.source = "dummy layer";
  core::ImplResult cpp, sdk;
  cpp.implementation = "cpp";
  cpp.outcome = core::Outcome::kAccepted;
  sdk.implementation = "dummy-sdk";
  sdk.outcome = core::Outcome::kRejected;
  f.results = {cpp, sdk};
  core::Divergence d;
  d.cls = core::DivergenceClass::kAcceptance;
  d.layer = kName;
  d.implementations = {"cpp", "dummy-sdk"};
  d.detail = "cpp accepts the probe, dummy-sdk rejects it";
  d.signature = "dummy|acceptance|cpp=accepted,dummy-sdk=rejected";
  d.bucket = schema::sha256_hex(d.signature).substr(0, 16);
  f.divergences = {d};
  return f;
}

class DummyLayer final : public layers::Layer {
 public:
  const layers::LayerInfo& info() const override {
    static const layers::LayerInfo i{kName, 4, "a test's layer", "a constant answer", "probes"};
    return i;
  }
  bool has_own_batches() const override { return true; }
  double time_share(const std::map<std::string, std::string>&) const override { return 0.5; }
  bool available(layers::LayerRun&) const override { return true; }

  layers::LayerOutcome run_batches(const layers::LayerRun& run) const override {
    const std::uint64_t batches = run.seconds ? 1 : 2;
    run::FindingStore store((fs::path(run.out) / run::kFindingsDir).string());
    run::Summary summary = run::read_summary(run.out).value_or(run::Summary{});
    std::uint64_t ran = 0;
    for (std::uint64_t b = 0; b < batches; ++b) {
      if (b % run.shard_count != run.shard_index) continue;
      const run::Finding f = probe_finding(run.seed * 100 + b);
      store.write(f);
      run::count_finding(summary, f);
      if (run.events) {
        run.events->finding(f, b == 0 ? &f.divergences.front() : nullptr);
        run::ProgressPoint p = run::totals_of(summary);
        p.layers = {kName};
        run.events->progress(p);
      }
      ++ran;
    }
    summary.by_layer.emplace(kName, 0);
    summary.layers[kName] = {ran, {"effect"}};
    summary.findings = run::list_finding_files(fs::path(run.out) / run::kFindingsDir).size();
    run::write_summary(run.out, summary);
    write_batches(run.out, batches_in(run.out) + ran);
    return {true, std::to_string(ran) + " dummy batches", 0};
  }

  MergeWriter merge_files(const std::vector<std::string>& shards,
                          const std::optional<std::string>& existing) const override {
    std::uint64_t total = existing ? batches_in(*existing) : 0;
    for (const auto& s : shards) total += batches_in(s);
    if (total == 0) return {};
    return [total](const std::string& out) { write_batches(out, total); };
  }
};

}  // namespace

std::unique_ptr<layers::Layer> make_dummy_layer() { return std::make_unique<DummyLayer>(); }

}  // namespace crosscheck::dummy_layer
