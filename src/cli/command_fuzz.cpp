// command_fuzz.cpp: `crosscheck fuzz`, the main job: its flags; src/fuzz_run runs it.
#include <iomanip>
#include <memory>
#include <sstream>

#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/schema_option.hpp"
#include "fuzz_run/fuzz_run.hpp"

namespace crosscheck::cli {
namespace {

/// The flags of `fuzz`: the run's (fuzz_run::FuzzOptions), the adapters' and layer 3's own.
struct FuzzFlags {
  AdapterOptions adapters;
  fuzz_run::FuzzOptions run;
  std::string clients;        ///< --clients: layer-3 SDK clients (default: those of the running adapters)
  std::string client_config;  ///< --client-config (default adapters/clients.json)
  std::size_t scenario_batch = 48;     ///< --scenario-batch: generated rows per client run
  double contextual_share = 0.3;       ///< --contextual-share of --time for layer 3 beside other layers
  std::uint64_t scenario_batches = 2;  ///< --scenario-batches: layer-3 batches of a --runs run
};

int fuzz(FuzzFlags& f) {
  fuzz_run::FuzzOptions& o = f.run;
  std::ostringstream share;
  share << std::setprecision(17) << f.contextual_share;
  o.layer_settings = {{"clients", f.clients},
                      {"client-config", f.client_config},
                      {"scenario-batch", std::to_string(f.scenario_batch)},
                      {"scenario-batches", std::to_string(f.scenario_batches)},
                      {"contextual-share", share.str()}};
  o.schema_path = f.adapters.schema;
  o.deadline_s = f.adapters.deadline_s;
  o.load_schema = [&] { return load_ir_or_fail(f.adapters.schema); };
  o.start_adapters = [&] { return f.adapters.start(); };
  return fuzz_run::run_fuzz(o);
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
      auto f = std::make_shared<FuzzFlags>();
      fuzz_run::FuzzOptions* o = &f->run;
      f->adapters.add_to(sub);
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
      sub.add_option("--clients", f->clients,
                     "Layer 3: SDK interop clients, comma-separated (default: those of the running adapters, "
                     "adapters/clients.json)");
      sub.add_option("--client-config", f->client_config,
                     "Layer 3: client configuration (default adapters/clients.json)");
      sub.add_option("--scenario-batch", f->scenario_batch, "Layer 3: generated rows per client run")
          ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
          ->capture_default_str();
      sub.add_option("--contextual-share", f->contextual_share,
                     "Layer 3: the share of --time it gets after the other layers (all of it when alone)")
          ->check(CLI::Range(0.01, 0.99))
          ->capture_default_str();
      sub.add_option("--scenario-batches", f->scenario_batches,
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
      return [f] { return fuzz(*f); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
