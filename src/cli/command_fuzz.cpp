// command_fuzz.cpp: `crosscheck fuzz`, the main job: a differential fuzz run (src/campaign).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <tuple>
#include <utility>

#include "baseline/classify.hpp"
#include "baseline/run_story.hpp"
#include "campaign/campaign.hpp"
#include "canonical/canonical_validator.hpp"
#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/duration.hpp"
#include "cli/scenario_support.hpp"
#include "cli/schema_option.hpp"
#include "interop/client_config.hpp"
#include "layers/contextual/campaign/contextual_campaign.hpp"
#include "reduce/reduce_files.hpp"
#include "report/writers.hpp"
#include "run/finding_files.hpp"
#include "run/layout.hpp"
#include "run/run_events.hpp"
#include "run/summary_file.hpp"
#include "util/result.hpp"
#include "util/running_executable.hpp"

namespace crosscheck::cli {
namespace {

/// The default reduction at the end of a run: this many adapter calls for each bucket (the reducer
/// benchmark's 10 KB payload needs 150-280), within a tenth of the run's time.
constexpr std::size_t kReduceCallsPerBucket = 400;
constexpr std::size_t kUnlimitedCalls = static_cast<std::size_t>(-1);

struct FuzzOptions {
  AdapterOptions adapters;
  std::string time;
  std::uint64_t runs = 0;
  std::uint64_t seed = 1;
  std::string out = "crosscheck-out";
  std::vector<std::string> roots;
  std::vector<std::string> seeds;
  std::size_t batch = 128;
  double generation_share = 0.25;  ///< --generation-share (campaign/generation_pacer.hpp)
  std::size_t corpus_files_per_root = 4096;
  std::size_t sent_sample_every = 0;  ///< --sent-sample
  bool strict = false;
  std::string shard;  ///< "I/N"
  std::string
      layers;  ///< --layers "structural,canonical,contextual"; empty: every layer an implementation lists
  std::string clients;        ///< --clients: layer-3 SDK clients (default: those of the running adapters)
  std::string client_config;  ///< --client-config (default adapters/clients.json)
  std::size_t scenario_batch = 48;     ///< --scenario-batch: generated rows per client run
  double contextual_share = 0.3;       ///< --contextual-share of --time for layer 3 beside other layers
  std::uint64_t scenario_batches = 2;  ///< --scenario-batches: layer-3 batches of a --runs run
  bool deterministic = false;
  bool verbose = false;  ///< --verbose: the tables, reductions, batches and every bucket on the terminal too
  std::string baseline;  ///< --baseline: only buckets it does not know fail the run
  /// Adapter calls for reducing the run's findings at the end, in total (0: off). Unset: up to
  /// kReduceCallsPerBucket for each bucket, or 0 for a --deterministic or --shard run (whose folders
  /// must merge into exactly one run's).
  std::optional<std::size_t> reduce_budget;
};

/// The end of a run: minimize one finding per bucket that has no .min.json yet (src/reduce).
void reduce_findings(const FuzzOptions& o, const schema::Ir& ir, exec::ImplementationSet& set,
                     bool interrupted, std::optional<double> run_seconds) {
  // Without --verbose the reduction is silent: the report shows each minimized witness and its size.
  std::ostringstream quiet;
  std::ostream& log = o.verbose ? std::cerr : quiet;
  const bool merged_later = o.deterministic || !o.shard.empty();
  // Unset, the budget is per bucket (a fixed total spread over hundreds of buckets left each about
  // 40 calls, too few to minimize anything); the time cap below bounds the whole.
  const std::size_t budget = o.reduce_budget.value_or(merged_later ? 0 : kUnlimitedCalls);
  if (budget == 0) {
    if (merged_later && !o.reduce_budget)
      log << "findings not reduced (a --deterministic or --shard run): after crosscheck merge, "
             "crosscheck reduce MERGED_FOLDER does it\n";
    return;
  }
  if (interrupted) {
    log << "findings were not reduced (the run was interrupted): crosscheck reduce FINDING does one, "
           "or run the same command again to resume, and reduce at its end\n";
    return;
  }
  reduce::RunReduceOptions r;
  r.total_budget = budget;
  if (!o.reduce_budget) r.per_finding_budget = kReduceCallsPerBucket;
  // The run's own time budget was the user's: reduction adds at most a tenth of it (at least 10 s).
  r.max_seconds = std::max(10.0, run_seconds.value_or(600) / 10);
  r.base.oracle = &ir;
  r.base.should_stop = [] { return exec::stop_requested(); };
  auto done = reduce::reduce_run_folder(o.out, set, r, log);
  // Layer-3 rows cost a client run per step (a second or more on the Python client): not in the run's
  // own time, but one command away.
  if (std::filesystem::exists(std::filesystem::path(o.out) / run::kRuleCoverageFile))
    log << "layer-3 findings are not reduced at the end of a run: crosscheck reduce " << o.out
        << " reduces them on their clients\n";
  if (done.reduced.empty() && done.skipped.empty() && done.buckets_left == 0) return;
  log << "reduction: " << done.reduced.size() << " finding(s) minimized in " << done.calls << " calls ("
      << (o.reduce_budget ? "of " + std::to_string(budget) + ", --reduce-budget"
                          : "up to " + std::to_string(kReduceCallsPerBucket) + " per bucket")
      << ", at most " << static_cast<long>(r.max_seconds) << " s)\n";
  for (const auto& s : done.skipped) log << "  not reduced: " << s << "\n";
  if (done.buckets_left || exec::stop_requested())
    log << "  " << (done.buckets_left ? std::to_string(done.buckets_left) + " bucket(s) left: " : "")
        << "crosscheck reduce FINDING (or a larger --reduce-budget on a resumed run) can finish the job\n";
}

/// "I/N" with 0 <= I < N -> (I, N); Fatal with the accepted form otherwise.
std::pair<std::uint64_t, std::uint64_t> parse_shard(const std::string& text) {
  static const std::regex form(R"(^(\d{1,9})/(\d{1,9})$)");
  std::smatch m;
  if (std::regex_match(text, m, form)) {
    std::uint64_t i = std::stoull(m[1]), n = std::stoull(m[2]);
    if (n >= 1 && i < n) return {i, n};
  }
  throw Fatal(
      "--shard '" + text +
      "': expected I/N, shard I of N with 0 <= I < N (e.g. --shard 0/4, 1/4, 2/4 and 3/4 on four machines)");
}

/// What --layers chose: layers 1 and 2 (the adapters' campaign) and layer 3 (the clients').
struct LayerChoice {
  core::Layers layers;
  bool contextual = false;
};

/// --layers: a comma-separated list of layer names; Fatal (exit 2) naming the known ones otherwise.
LayerChoice parse_layers(const std::string& text) {
  const std::string known =
      std::string(core::kStructuralLayer) + ", " + core::kCanonicalLayer + ", " + run::kContextualLayer;
  LayerChoice choice;
  choice.layers.structural = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string name = text.substr(start, comma - start);
    if (name == core::kStructuralLayer) {
      choice.layers.structural = true;
    } else if (name == core::kCanonicalLayer) {
      choice.layers.canonical = true;
    } else if (name == run::kContextualLayer) {
      choice.contextual = true;
    } else {
      throw Fatal("--layers '" + text + "': unknown layer '" + name + "' (known: " + known + ")");
    }
    start = comma + 1;
  }
  return choice;
}

/// The layer-3 clients: --clients, or the clients of the SDKs whose adapters run (python/direct
/// counts as python). When none is available: Fatal exit 2 naming who supports layer 3 if the user
/// asked for the layer, else a note and none.
std::vector<scenario::ClientSpec> contextual_clients(const FuzzOptions& o, const exec::ImplementationSet& set,
                                                     bool asked) {
  if (!o.clients.empty())
    return pick_clients(o.client_config, client_names(o.clients), false);  // each must run
  const std::string path = o.client_config.empty() ? scenario::default_client_config_path() : o.client_config;
  auto all = scenario::load_client_config(path, scenario::checkout_dir());
  if (!all.ok()) throw Fatal(all.error());
  std::vector<scenario::ClientSpec> out;
  std::string available;
  for (const auto& c : all.value()) {
    if (!c.unavailable) available += (available.empty() ? "" : ", ") + c.name;
    bool running = false;
    for (const auto& n : set.names()) running = running || n.substr(0, n.find('/')) == c.name;
    if (running && !c.unavailable) out.push_back(c);
  }
  if (out.empty() && asked)
    throw Fatal("--layers " + std::string(run::kContextualLayer) +
                    ": no SDK interop client of the running adapters is available (layer 3 is supported by "
                    "the clients of " +
                    path + ": " + (available.empty() ? "none available here" : available) +
                    "; name them with --clients)",
                kExitUsage);
  if (out.empty())
    std::cerr << "note: layer 3 left out: no SDK interop client of the running adapters is available ("
              << path << ")\n";
  return out;
}

/// Unset --layers: every layer some implementation of the run lists in its hello.
core::Layers layers_of(const exec::ImplementationSet& set) {
  core::Layers layers;
  for (const auto& id : set.identities())
    layers.canonical = layers.canonical || id.has_layer(core::kCanonicalLayer);
  return layers;
}

/// Layer 3 after the adapters' campaign, in the same folder: its findings through src/run, its
/// progress and findings on the run's event log, its counts added to summary.json (its one writer),
/// its rule coverage beside it.
scenario_campaign::ContextualSummary fuzz_contextual(const FuzzOptions& o, const campaign::CampaignOptions& c,
                                                     const schema::Ir& ir,
                                                     const std::vector<scenario::ClientSpec>& clients,
                                                     std::optional<double> seconds) {
  auto validator = canonical::CanonicalValidator::from_ir(ir);
  if (!validator.ok())
    throw Fatal("layer 3: the schema does not load as canonical schemas: " + validator.error().text());
  run::RunEvents events(o.out, std::cerr);
  events.open(0);  // goes on from the campaign's last line
  scenario_campaign::ContextualOptions l3;
  l3.seed = o.seed;
  l3.out = o.out;
  l3.clients = clients;
  std::error_code ec;
  l3.client_config = o.client_config.empty() ? "" : std::filesystem::absolute(o.client_config, ec).string();
  l3.schema = o.adapters.schema.empty() ? "" : std::filesystem::absolute(o.adapters.schema, ec).string();
  l3.crosscheck_exe = running_executable();
  l3.batch = o.scenario_batch;
  l3.stall_deadline = std::chrono::milliseconds(static_cast<long long>(o.adapters.deadline_s * 1000));
  l3.seconds = seconds;
  if (!seconds) l3.batches = o.scenario_batches;
  l3.shard_index = c.shard_index;
  l3.shard_count = c.shard_count;
  l3.deterministic = c.deterministic;
  l3.should_stop = [] { return exec::stop_requested(); };
  l3.events = &events;
  using Progress = scenario_campaign::ContextualOptions::Progress;
  l3.progress = o.verbose ? Progress::kEveryBatch : c.live ? Progress::kLive : Progress::kPeriodic;
  std::string names;
  for (const auto& client : clients) names += (names.empty() ? "" : ",") + client.name;
  std::cerr << "layer 3: generated scenarios on cpp," << names << " ("
            << (seconds ? std::to_string(static_cast<long long>(*seconds)) + " s"
                        : std::to_string(*l3.batches) + " batches")
            << " of " << l3.batch << " rows)\n";
  scenario_campaign::ContextualSummary done =
      scenario_campaign::run_contextual(validator.value(), l3, std::cerr);
  if (o.verbose) {
    std::cerr << "layer 3: " << done.rows << " rows in " << done.batches << " batches ("
              << (done.seconds > 0 ? static_cast<long long>(done.rows / done.seconds) : 0) << "/s), "
              << done.counts.divergent_inputs << " with findings in " << done.counts.bucket_roots.size()
              << " buckets, " << done.novel_rows << " novel";
    if (done.broken) std::cerr << ", " << done.broken << " crash/timeout/protocol results";
    std::cerr << "; rule coverage " << static_cast<int>(done.coverage.percent()) << "% ("
              << (std::filesystem::path(o.out) / run::kRuleCoverageFile).string() << ")\n";
  }
  run::Summary summary = run::read_summary(o.out).value_or(run::Summary{});
  scenario_campaign::add_to_summary(summary, done, clients);
  summary.findings = run::list_finding_files(std::filesystem::path(o.out) / run::kFindingsDir).size();
  run::write_summary(o.out, summary);
  return done;
}

/// The event log's "end", after the run's last layer: the run's totals as summary.json now has them.
void write_end_event(const FuzzOptions& o, const std::vector<std::string>& layers) {
  run::RunEvents events(o.out, std::cerr);
  events.open(0);
  run::ProgressPoint totals = run::totals_of(run::read_summary(o.out).value_or(run::Summary{}));
  totals.layers = layers;
  events.end(totals, o.strict, exec::stop_requested());
}

/// The story's line of each layer: its inputs (summary.json's "layers") and a figure of its own.
std::vector<baseline::StoryLayer> story_layers(
    const std::vector<std::string>& layers, const run::Summary& summary,
    const campaign::CampaignSummary& campaign,
    const std::optional<scenario_campaign::ContextualSummary>& l3) {
  std::vector<baseline::StoryLayer> out;
  for (const auto& name : layers) {
    baseline::StoryLayer layer{name, std::nullopt, "inputs", ""};
    if (auto it = summary.layers.find(name); it != summary.layers.end()) layer.inputs = it->second.inputs;
    auto percent = [](double x) {
      std::ostringstream s;
      s << std::fixed << std::setprecision(1) << x << "%";
      return s.str();
    };
    if (name == core::kStructuralLayer) {
      layer.note = "schema coverage " + percent(campaign.coverage_percent);
    } else if (name == core::kCanonicalLayer && campaign.canonical_coverage_percent) {
      layer.note = "canonical coverage " + percent(*campaign.canonical_coverage_percent);
    } else if (name == run::kContextualLayer) {
      layer.unit = "scenario rows";
      if (l3) {
        layer.note = "rule coverage " + percent(l3->coverage.percent());
        if (l3->broken) layer.note += ", " + std::to_string(l3->broken) + " crash/timeout/protocol results";
      }
    }
    out.push_back(std::move(layer));
  }
  return out;
}

/// What the verdict rests on that a person must know: roots never compared, implementations left out
/// of a layer.
std::vector<std::string> story_caveats(const run::Summary& summary) {
  std::vector<std::string> out;
  if (!summary.skewed_roots.empty()) {
    std::string roots;
    for (const auto& r : summary.skewed_roots) roots += (roots.empty() ? "" : ", ") + r;
    out.push_back("skewed roots (the implementations' schemas differ, not compared): " + roots);
  }
  if (summary.canonical_left_out && !summary.canonical_left_out->empty()) {
    std::string who;
    for (const auto& [impl, why] : *summary.canonical_left_out)
      who += (who.empty() ? "" : "; ") + impl + " (" + why + ")";
    out.push_back("left out of the canonical layer: " + who);
  }
  return out;
}

int fuzz(const FuzzOptions& o) {
  campaign::CampaignOptions c;
  if (!o.shard.empty()) std::tie(c.shard_index, c.shard_count) = parse_shard(o.shard);
  c.deterministic = o.deterministic;
  if (!o.time.empty()) c.seconds = parse_duration("--time", o.time);
  if (o.runs) c.runs = o.runs;
  if (!c.seconds && !c.runs) c.seconds = 60;
  c.seed = o.seed;
  c.out = o.out;
  c.roots = o.roots;
  c.seed_paths = o.seeds;
  c.batch = o.batch;
  c.corpus_files_per_root = o.corpus_files_per_root;
  c.sent_sample_every = o.sent_sample_every;
  c.generation_share = o.generation_share;
  c.strict = o.strict;
  c.live = ::isatty(2);
  c.detailed_log = o.verbose;
  std::optional<baseline::Baseline> known;
  if (!o.baseline.empty()) known = baseline::load_baseline(o.baseline);  // a bad file: exit 2 before fuzzing
  std::optional<LayerChoice> chosen;
  if (!o.layers.empty()) chosen = parse_layers(o.layers);  // a bad name: exit 2 before anything starts
  auto ir = load_ir_or_fail(o.adapters.schema);
  exec::install_stop_handlers();
  auto set = o.adapters.start();
  c.layers = chosen ? chosen->layers : layers_of(*set);
  // Layer 3 by default when a client of the running adapters is available.
  std::vector<scenario::ClientSpec> clients;
  if (!chosen || chosen->contextual) clients = contextual_clients(o, *set, chosen && chosen->contextual);
  const bool adapters_layers = c.layers.structural || c.layers.canonical;
  // With layer 3 after it, the campaign leaves the event log's end to the end of the last layer.
  c.end_event = clients.empty();
  // Layer 3 alone: the adapters' campaign runs no iteration but still lays out the folder (run.json,
  // state.json, summary.json) that layer 3 adds to.
  std::optional<double> contextual_seconds;
  if (!clients.empty() && c.seconds) {
    contextual_seconds = adapters_layers ? *c.seconds * o.contextual_share : *c.seconds;
    c.seconds = *c.seconds - *contextual_seconds;
  }
  if (!adapters_layers) {
    c.runs = 0;
    c.seconds.reset();
  }
  for (const auto& n : set->names())
    c.adapters_fingerprint += (c.adapters_fingerprint.empty() ? "" : ",") + n;
  std::vector<std::string> layers;
  if (c.layers.structural) layers.push_back(core::kStructuralLayer);
  if (c.layers.canonical) layers.push_back(core::kCanonicalLayer);
  if (!clients.empty()) layers.push_back(run::kContextualLayer);
  std::string layer_names;
  for (const auto& l : layers) layer_names += (layer_names.empty() ? "" : ",") + l;
  std::cerr << "fuzzing "
            << (c.roots.empty() ? std::string("every root") : std::to_string(c.roots.size()) + " roots")
            << " on " << c.adapters_fingerprint << " (seed " << c.seed << ", "
            << (c.shard_count > 1 ? "shard " + o.shard + ", " : std::string())
            << (c.deterministic ? "deterministic, " : "") << "layers " << layer_names << ", "
            << (c.seconds
                    ? std::to_string(static_cast<long long>(*c.seconds + contextual_seconds.value_or(0))) +
                          " s"
                    : std::to_string(c.runs.value_or(0)) + " inputs")
            << ") -> " << c.out << "\n";
  const auto started = std::chrono::steady_clock::now();
  // The set's own copy of the same schema: the generation step's in-process decodes are then the C++
  // reference's results (ImplementationSet::ReferenceDecode), not repeated on the sender thread.
  const campaign::CampaignSummary adapters_done =
      campaign::run_campaign(set->default_ir(), *set, c, std::cerr);
  std::optional<scenario_campaign::ContextualSummary> contextual_done;
  if (!clients.empty() && !exec::stop_requested()) {
    // Layer 3 gets what the campaign left of the time (it may stop a little after its share).
    if (contextual_seconds) {
      const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      contextual_seconds = std::max(1.0, *contextual_seconds + c.seconds.value_or(0) - used);
    }
    contextual_done = fuzz_contextual(o, c, ir, clients, contextual_seconds);
  }
  if (!c.end_event) write_end_event(o, layers);
  const bool interrupted = exec::stop_requested();
  if (interrupted)
    std::cerr << "interrupted: everything found so far is in " << c.out
              << "; run the same command to resume\n";
  reduce_findings(o, ir, *set, interrupted, c.seconds);
  // The verdict (verdict/verdict.hpp) over every bucket in the folder, recorded as verdict.json (and
  // baseline-check.json with a baseline).
  const baseline::Classification judged = baseline::judge_run_folder(
      known ? &*known : nullptr, c.out, o.strict, known ? "baseline check" : "fuzz");
  // After the steps above: the reports show what they added (e.g. minimized findings).
  baseline::Story story;
  story.run_dir = c.out;
  story.baseline = known ? &*known : nullptr;
  story.strict = o.strict;
  story.verbose = o.verbose;
  story.report_files = report::write_run_reports(c.out, std::cerr);
  const run::Summary summary = run::read_summary(c.out).value_or(run::Summary{});
  story.layers = story_layers(layers, summary, adapters_done, contextual_done);
  story.caveats = story_caveats(summary);
  // The story ends the run's output: the verdict first, what is new and failing, where to look.
  std::cerr << std::flush;
  baseline::print_run_story(std::cout, judged, story);
  return judged.verdict(o.strict, known ? std::optional(known->path) : std::nullopt).exit_code();
}

const Registration kFuzz{CommandSpec{
    "fuzz", "Differential fuzz run: generate and mutate payloads, send them to every implementation",
    "  crosscheck fuzz --time 60s\n"
    "  crosscheck fuzz --time 1h --adapters cpp,python,rust --jobs 2 --out nightly/\n"
    "  crosscheck fuzz --runs 100000 --seed 7 --root effect --root intercept_request\n"
    "  crosscheck fuzz --out nightly/      # again on the same folder: resumes\n"
    "  crosscheck fuzz --time 1h --seed 7 --shard 1/4 --out shard-1/   # one of four machines; then "
    "crosscheck merge",
    [](CLI::App& sub) {
      auto o = std::make_shared<FuzzOptions>();
      o->adapters.add_to(sub);
      sub.add_option("--time", o->time, "Time budget: 30, 30s, 5m, 1h, 1h30m (default 60s unless --runs)");
      sub.add_option("--runs", o->runs,
                     "Stop after this many iterations (inputs) of the run; a shard does its share of them");
      sub.add_option("--seed", o->seed, "Run seed (every input's seed derives from it)")
          ->capture_default_str();
      sub.add_option("--out", o->out, "Output folder (corpus, findings, coverage); an existing one resumes")
          ->capture_default_str();
      sub.add_option("--root", o->roots, "Fuzz only this root (repeatable)");
      sub.add_option("--seeds", o->seeds, "Extra seed files or folders (any bytes)");
      sub.add_option("--batch", o->batch, "Requests per adapter batch")->check(CLI::Range(1, 100000));
      sub.add_option("--generation-share", o->generation_share,
                     "While the adapters are behind, the generation thread uses at most this fraction of "
                     "one core and leaves the rest to the SDKs, at nice +10 (1: no limit, normal priority; "
                     "ignored by --deterministic)")
          ->check(CLI::Range(0.01, 1.0))
          ->capture_default_str();
      sub.add_flag("--strict", o->strict, "Fail on implementation-defined divergences too");
      sub.add_option(
          "--layers", o->layers,
          "Comparison layers, comma-separated: structural (decoding), canonical (JSON Schema "
          "validation), contextual (generated scenarios through the SDK interop clients); default: "
          "every layer an implementation lists, and contextual when a client of the running "
          "adapters is available. Implementations without a layer are left out of it, and the "
          "summary says so");
      sub.add_option("--clients", o->clients,
                     "Layer 3: SDK interop clients, comma-separated (default: those of the running adapters, "
                     "adapters/clients.json)");
      sub.add_option("--client-config", o->client_config,
                     "Layer 3: client configuration (default adapters/clients.json)");
      sub.add_option("--scenario-batch", o->scenario_batch, "Layer 3: generated rows per client run")
          ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
          ->capture_default_str();
      sub.add_option("--contextual-share", o->contextual_share,
                     "Layer 3: the share of --time it gets after the other layers (all of it when alone)")
          ->check(CLI::Range(0.01, 0.99))
          ->capture_default_str();
      sub.add_option("--scenario-batches", o->scenario_batches,
                     "Layer 3: batches of a --runs run (a --time run fills its share)")
          ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1000000}))
          ->capture_default_str();
      sub.add_option("--sent-sample", o->sent_sample_every,
                     "Also write every Nth input sent to the adapters to sent-sample/<root>/ (the mix an "
                     "SDK is measured on: bench_adapters DIR); 0 writes none")
          ->check(CLI::Range(std::size_t{0}, std::size_t{1000000000}))
          ->capture_default_str();
      sub.add_option("--corpus-limit", o->corpus_files_per_root,
                     "Files kept in corpus/<root>/ (later inputs stay in memory only)")
          ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}))
          ->capture_default_str();
      sub.add_option(
          "--baseline", o->baseline,
          "Known-divergence baseline (docs/baseline.md): only buckets it does not cover fail the run");
      sub.add_option("--shard", o->shard,
                     "I/N: do only the iterations i with i % N == I of this seed's run (join the shards' "
                     "folders with crosscheck merge)");
      sub.add_option(
          "--reduce-budget", o->reduce_budget,
          "At the end, minimize one finding per bucket (<name>.min.json) with at most this many "
          "adapter calls in total (default: up to 400 per bucket, contract buckets first; 0 for "
          "--deterministic and --shard runs), within a tenth of --time (at least 10 s); 0 turns it off");
      sub.add_flag(
          "--verbose", o->verbose,
          "Also print the summary's tables (per layer, class, root, implementation), the throughput, "
          "each reduction and layer-3 batch, and every implementation-defined and known bucket "
          "(the report has them either way)");
      sub.add_flag("--deterministic", o->deterministic,
                   "No corpus feedback, every input sent: findings depend on the seed and iterations alone, "
                   "so merged shards equal one run (docs/ci.md)");
      return [o] { return fuzz(*o); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
