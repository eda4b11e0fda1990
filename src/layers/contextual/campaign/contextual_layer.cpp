// contextual_layer.cpp: layer 3 as a plug-in (layers/layer.hpp): generated scenario batches to the SDK
// interop clients and the reference host (contextual_campaign.hpp), for its share of the run.
#include <algorithm>
#include <filesystem>
#include <memory>

#include "canonical/canonical_validator.hpp"
#include "core/impl_result.hpp"
#include "interop/client_choice.hpp"
#include "layers/contextual/campaign/contextual_campaign.hpp"
#include "layers/contextual/reduce/row_reduction.hpp"
#include "layers/layer.hpp"
#include "run/finding_files.hpp"
#include "run/layout.hpp"
#include "util/result.hpp"
#include "util/running_executable.hpp"

namespace crosscheck::scenario_campaign {
namespace {

namespace fs = std::filesystem;
using layers::LayerRun;

std::string setting(const LayerRun& run, const std::string& key, const std::string& fallback = "") {
  auto it = run.settings.find(key);
  return it == run.settings.end() ? fallback : it->second;
}

class ContextualLayer final : public layers::Layer {
 public:
  const layers::LayerInfo& info() const override {
    static const layers::LayerInfo i{run::kContextualLayer, 3,
                                     "generated scenarios through the SDK interop clients",
                                     "the C++ reference host (src/layers/contextual/host)", "scenario rows"};
    return i;
  }
  bool has_own_batches() const override { return true; }
  double time_share(const std::map<std::string, std::string>& settings) const override {
    auto it = settings.find("contextual-share");
    return it == settings.end() ? 0.3 : std::stod(it->second);
  }

  /// The layer-3 clients: --clients, or the clients of the SDKs whose adapters run (python/direct
  /// counts as python), kept in the run's settings as "chosen-clients". When none is available: Fatal
  /// exit 2 naming who supports layer 3 if the user asked for the layer, else a note and false.
  bool available(LayerRun& run) const override {
    const std::string clients = setting(run, "clients");
    const std::string config = setting(run, "client-config");
    std::string chosen;
    if (!clients.empty()) {
      for (const auto& c : scenario::pick_clients(config, scenario::client_names(clients), false))
        chosen += (chosen.empty() ? "" : ",") + c.name;  // each must run
      run.settings["chosen-clients"] = chosen;
      return true;
    }
    const std::string path = config.empty() ? scenario::default_client_config_path() : config;
    auto all = scenario::load_client_config(path, scenario::checkout_dir());
    if (!all.ok()) throw Fatal(all.error());
    std::string available;
    for (const auto& c : all.value()) {
      if (!c.unavailable) available += (available.empty() ? "" : ", ") + c.name;
      bool running = false;
      for (const auto& n : run.implementations) running = running || n.substr(0, n.find('/')) == c.name;
      if (running && !c.unavailable) chosen += (chosen.empty() ? "" : ",") + c.name;
    }
    if (chosen.empty() && run.asked)
      throw Fatal("--layers " + std::string(run::kContextualLayer) +
                      ": no SDK interop client of the running adapters is available (layer 3 is supported by "
                      "the clients of " +
                      path + ": " + (available.empty() ? "none available here" : available) +
                      "; name them with --clients)",
                  kExitUsage);
    if (chosen.empty()) {
      *run.log << "note: layer 3 left out: no SDK interop client of the running adapters is available ("
               << path << ")\n";
      return false;
    }
    run.settings["chosen-clients"] = chosen;
    return true;
  }

  /// Layer 3 in the run's folder: its findings through src/run, its progress and findings on the run's
  /// event log, its counts and time added to summary.json (its one writer), its rule coverage beside it.
  layers::LayerOutcome run_batches(const LayerRun& run) const override {
    std::ostream& log = *run.log;
    auto validator = canonical::CanonicalValidator::from_ir(*run.ir);
    if (!validator.ok())
      throw Fatal("layer 3: the schema does not load as canonical schemas: " + validator.error().text());
    const std::string config = setting(run, "client-config");
    const std::vector<scenario::ClientSpec> clients =
        scenario::pick_clients(config, scenario::client_names(setting(run, "chosen-clients")), false);
    ContextualOptions l3;
    l3.seed = run.seed;
    l3.out = run.out;
    l3.clients = clients;
    std::error_code ec;
    l3.client_config = config.empty() ? "" : fs::absolute(config, ec).string();
    l3.schema = run.schema_path.empty() ? "" : fs::absolute(run.schema_path, ec).string();
    l3.crosscheck_exe = running_executable();
    l3.batch = std::stoull(setting(run, "scenario-batch", "48"));
    l3.stall_deadline = std::chrono::milliseconds(static_cast<long long>(run.deadline_s * 1000));
    l3.seconds = run.seconds;
    if (!run.seconds) l3.batches = std::stoull(setting(run, "scenario-batches", "2"));
    l3.shard_index = run.shard_index;
    l3.shard_count = run.shard_count;
    l3.deterministic = run.deterministic;
    l3.should_stop = run.should_stop;
    l3.events = run.events;
    using Progress = ContextualOptions::Progress;
    l3.progress = run.verbose ? Progress::kEveryBatch : run.live ? Progress::kLive : Progress::kPeriodic;
    std::string names;
    for (const auto& client : clients) names += (names.empty() ? "" : ",") + client.name;
    log << "layer 3: generated scenarios on cpp," << names << " ("
        << (run.seconds ? std::to_string(static_cast<long long>(*run.seconds)) + " s"
                        : std::to_string(*l3.batches) + " batches")
        << " of " << l3.batch << " rows)\n";
    const ContextualSummary done = run_contextual(validator.value(), l3, log);
    if (run.verbose) {
      log << "layer 3: " << done.rows << " rows in " << done.batches << " batches ("
          << (done.seconds > 0 ? static_cast<long long>(done.rows / done.seconds) : 0) << "/s), "
          << done.counts.divergent_inputs << " with findings in " << done.counts.bucket_roots.size()
          << " buckets, " << done.novel_rows << " novel";
      if (done.broken) log << ", " << done.broken << " crash/timeout/protocol results";
      log << "; rule coverage " << static_cast<int>(done.coverage.percent()) << "% ("
          << (fs::path(run.out) / run::kRuleCoverageFile).string() << ")\n";
    }
    run::Summary summary = run::read_summary(run.out).value_or(run::Summary{});
    add_to_summary(summary, done, clients);
    summary.findings = run::list_finding_files(fs::path(run.out) / run::kFindingsDir).size();
    summary.elapsed += done.seconds;  // the run's time is every layer's
    run::write_summary(run.out, summary);
    layers::LayerOutcome outcome;
    outcome.ran = true;
    outcome.seconds = done.seconds;
    outcome.note = "rule coverage " + layers::percent_text(done.coverage.percent());
    if (done.broken) outcome.note += ", " + std::to_string(done.broken) + " crash/timeout/protocol results";
    return outcome;
  }

  // The inputs' counts summed; against what OUT already has, the larger count of each way, so a folder
  // merged again is not counted twice (a later shard only raises it).
  MergeWriter merge_files(const std::vector<std::string>& shards,
                          const std::optional<std::string>& existing) const override {
    std::optional<scenario_gen::RuleCoverageSummary> rule_coverage;
    for (const auto& shard : shards) {
      const fs::path file = fs::path(shard) / run::kRuleCoverageFile;
      if (!fs::exists(file)) continue;
      auto c = scenario_gen::read_rule_coverage(file.string());
      rule_coverage = rule_coverage ? scenario_gen::join_rule_coverage(*rule_coverage, c) : c;
    }
    if (rule_coverage && existing && fs::exists(fs::path(*existing) / run::kRuleCoverageFile))
      rule_coverage = scenario_gen::join_rule_coverage(
          scenario_gen::read_rule_coverage((fs::path(*existing) / run::kRuleCoverageFile).string()),
          *rule_coverage, true);
    if (!rule_coverage) return {};
    return [joined = *rule_coverage](const std::string& out) {
      scenario_gen::write_rule_coverage((fs::path(out) / run::kRuleCoverageFile).string(), joined);
    };
  }

  // A scenario row is reduced on the clients (or servers) it names and the reference host.
  std::optional<int> reduce_file(const layers::ReduceRequest& request) const override {
    auto f = run::FindingStore::load(request.path);
    if (!f.ok() || !f.value().scenario) return std::nullopt;
    return reduce::reduce_row_finding(request, f.value());
  }
  layers::FolderReduction reduce_folder(const layers::ReduceRequest& request) const override {
    return reduce::reduce_row_findings(request);
  }

  // Layer-3 rows cost a client run per step (a second or more on the Python client): not in the run's
  // own time, but one command away.
  std::string reduce_note(const std::string& out) const override {
    if (!fs::exists(fs::path(out) / run::kRuleCoverageFile)) return "";
    return "layer-3 findings are not reduced at the end of a run: crosscheck reduce " + out +
           " reduces them on their clients";
  }
};

}  // namespace

std::unique_ptr<layers::Layer> make_contextual_layer() { return std::make_unique<ContextualLayer>(); }

}  // namespace crosscheck::scenario_campaign
