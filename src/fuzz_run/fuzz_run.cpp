// fuzz_run.cpp: `crosscheck fuzz`, the main job (fuzz_run.hpp).
#include "fuzz_run/fuzz_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>
#include <tuple>
#include <utility>

#include "baseline/classify.hpp"
#include "baseline/run_story.hpp"
#include "campaign/campaign.hpp"
#include "layers/registry/layer_registry.hpp"
#include "reduce/reduce_files.hpp"
#include "report/writers.hpp"
#include "run/run_events.hpp"
#include "run/summary_file.hpp"
#include "util/duration.hpp"
#include "util/result.hpp"

namespace crosscheck::fuzz_run {
namespace {

/// The default reduction at the end of a run: this many adapter calls for each bucket (the reducer
/// benchmark's 10 KB payload needs 150-280), within a tenth of the run's time.
constexpr std::size_t kReduceCallsPerBucket = 400;
constexpr std::size_t kUnlimitedCalls = static_cast<std::size_t>(-1);

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
  for (const layers::Layer* layer : layers::registered_layers())
    if (std::string note = layer->reduce_note(o.out); !note.empty()) log << note << "\n";
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

/// --layers: a comma-separated list of registered layer names, in the registry's order; Fatal (exit 2)
/// naming the known ones otherwise.
std::vector<const layers::Layer*> parse_layers(const std::string& text) {
  std::vector<const layers::Layer*> named;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string name = text.substr(start, comma - start);
    const layers::Layer* layer = layers::find_layer(name);
    if (!layer)
      throw Fatal("--layers '" + text + "': unknown layer '" + name + "' (known: " + layers::layer_names() +
                  ")");
    named.push_back(layer);
    start = comma + 1;
  }
  std::vector<const layers::Layer*> out;
  for (const layers::Layer* layer : layers::registered_layers())
    if (std::find(named.begin(), named.end(), layer) != named.end()) out.push_back(layer);
  return out;
}

/// Unset --layers: every payload layer some implementation of the run lists in its hello, and every
/// layer with batches of its own (each says at its start whether it can run).
std::vector<const layers::Layer*> default_layers(const exec::ImplementationSet& set) {
  std::vector<std::vector<std::string>> listed;
  for (const auto& id : set.identities()) listed.push_back(id.layers);
  std::vector<const layers::Layer*> out;
  for (const layers::Layer* layer : layers::registered_layers())
    if (layer->has_own_batches() || layer->listed_by(listed)) out.push_back(layer);
  return out;
}

/// The story's line of each layer: its inputs (summary.json's "layers") and a figure of its own.
std::vector<baseline::StoryLayer> story_layers(const std::vector<const layers::Layer*>& ran,
                                               const run::Summary& summary,
                                               const std::map<std::string, double>& payload_figures,
                                               const std::map<std::string, std::string>& own_notes) {
  std::vector<baseline::StoryLayer> out;
  for (const layers::Layer* layer : ran) {
    const std::string& name = layer->info().name;
    baseline::StoryLayer line{name, std::nullopt, layer->info().unit, ""};
    if (auto it = summary.layers.find(name); it != summary.layers.end()) line.inputs = it->second.inputs;
    if (auto it = own_notes.find(name); it != own_notes.end())
      line.note = it->second;
    else
      line.note = layer->payload_note(payload_figures);
    out.push_back(std::move(line));
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

/// The event log's "end", after the run's last layer: the run's totals as summary.json now has them.
void write_end_event(const FuzzOptions& o, const std::vector<std::string>& names) {
  run::RunEvents events(o.out, std::cerr);
  events.open(0);
  run::ProgressPoint totals = run::totals_of(run::read_summary(o.out).value_or(run::Summary{}));
  totals.layers = names;
  events.end(totals, o.strict, exec::stop_requested());
}

}  // namespace

int run_fuzz(const FuzzOptions& o) {
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
  std::optional<std::vector<const layers::Layer*>> chosen;
  if (!o.layers.empty()) chosen = parse_layers(o.layers);  // a bad name: exit 2 before anything starts
  auto ir = o.load_schema();
  exec::install_stop_handlers();
  auto set = o.start_adapters();
  for (const auto& n : set->names())
    c.adapters_fingerprint += (c.adapters_fingerprint.empty() ? "" : ",") + n;

  // The layers of the run: those on the adapters' payload batches, then those with batches of their
  // own that can run here (each says why not when it cannot; a named one that cannot is exit 2).
  layers::LayerRun base;
  base.out = o.out;
  base.seed = o.seed;
  base.deterministic = o.deterministic;
  base.shard_index = c.shard_index;
  base.shard_count = c.shard_count;
  base.ir = &ir;
  base.schema_path = o.schema_path;
  base.deadline_s = o.deadline_s;
  base.implementations = set->names();
  base.verbose = o.verbose;
  base.live = c.live;
  base.settings = o.layer_settings;
  base.should_stop = [] { return exec::stop_requested(); };
  base.log = &std::cerr;
  c.layers.structural = false;
  std::vector<const layers::Layer*> ran, own;
  for (const layers::Layer* layer : chosen ? *chosen : default_layers(*set)) {
    if (layer->enable_on_payloads(c.layers)) {
      ran.push_back(layer);
    } else if (layer->has_own_batches()) {
      base.asked = chosen.has_value();
      if (layer->available(base)) own.push_back(layer), ran.push_back(layer);
    }
  }
  const bool payload_layers = c.layers.structural || c.layers.canonical;
  // With layers of their own after it, the campaign leaves the event log's end to the last layer.
  c.end_event = own.empty();
  // Each layer of its own takes its share of --time (all of it when the adapters' layers do not run).
  // Alone, the adapters' campaign runs no iteration but still lays out the folder (run.json,
  // state.json, summary.json) that they add to.
  std::map<const layers::Layer*, double> own_seconds;
  double own_total = 0;
  if (c.seconds)
    for (const layers::Layer* layer : own) {
      const double share = payload_layers ? layer->time_share(o.layer_settings) : 1.0 / own.size();
      own_total += own_seconds[layer] = *c.seconds * share;
    }
  if (c.seconds && !own.empty()) c.seconds = *c.seconds - own_total;
  if (!payload_layers) {
    c.runs = 0;
    c.seconds.reset();
  }
  std::vector<std::string> names;
  for (const layers::Layer* layer : ran) names.push_back(layer->info().name);
  std::string layer_names;
  for (const auto& l : names) layer_names += (layer_names.empty() ? "" : ",") + l;
  std::cerr << "fuzzing "
            << (c.roots.empty() ? std::string("every root") : std::to_string(c.roots.size()) + " roots")
            << " on " << c.adapters_fingerprint << " (seed " << c.seed << ", "
            << (c.shard_count > 1 ? "shard " + o.shard + ", " : std::string())
            << (c.deterministic ? "deterministic, " : "") << "layers " << layer_names << ", "
            << (c.seconds ? std::to_string(static_cast<long long>(*c.seconds + own_total)) + " s"
                          : std::to_string(c.runs.value_or(0)) + " inputs")
            << ") -> " << c.out << "\n";
  const auto started = std::chrono::steady_clock::now();
  // The set's own copy of the same schema: the generation step's in-process decodes are then the C++
  // reference's results (ImplementationSet::ReferenceDecode), not repeated on the sender thread.
  const campaign::CampaignSummary payloads_done =
      campaign::run_campaign(set->default_ir(), *set, c, std::cerr);
  std::map<std::string, double> payload_figures{{"schema-coverage", payloads_done.coverage_percent}};
  if (payloads_done.canonical_coverage_percent)
    payload_figures["canonical-coverage"] = *payloads_done.canonical_coverage_percent;
  std::map<std::string, std::string> own_notes;
  double own_budget_left = own_total + c.seconds.value_or(0);
  for (const layers::Layer* layer : own) {
    if (exec::stop_requested()) break;
    layers::LayerRun run = base;
    // Each gets what the layers before it left of the time (it may stop a little after its share).
    if (c.seconds || own_seconds.count(layer)) {
      const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      double later = 0;
      for (auto it = std::find(own.begin(), own.end(), layer) + 1; it != own.end(); ++it)
        later += own_seconds[*it];
      run.seconds = std::max(1.0, own_budget_left - used - later);
    }
    run::RunEvents events(o.out, std::cerr);
    events.open(0);  // goes on from the last line of the layers before it
    run.events = &events;
    own_notes[layer->info().name] = layer->run_batches(run).note;
  }
  if (!c.end_event) write_end_event(o, names);
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
  story.layers = story_layers(ran, summary, payload_figures, own_notes);
  story.caveats = story_caveats(summary);
  // The story ends the run's output: the verdict first, what is new and failing, where to look.
  std::cerr << std::flush;
  baseline::print_run_story(std::cout, judged, story);
  return judged.verdict(o.strict, known ? std::optional(known->path) : std::nullopt).exit_code();
}

}  // namespace crosscheck::fuzz_run
