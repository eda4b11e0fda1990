// command_reduce.cpp: `crosscheck reduce FINDING` / `crosscheck reduce DIR`: its flags; src/reduce_run
// runs it (docs/reducer.md).
#include <memory>

#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/schema_option.hpp"
#include "exec/adapter_pool.hpp"
#include "reduce_run/reduce_run.hpp"

namespace crosscheck::cli {
namespace {

struct ReduceCliOptions {
  AdapterOptions adapters;
  std::string finding;  ///< a finding file, or a run folder
  std::string bucket;
  std::size_t budget = 2000;
  std::size_t batch = 16;
  bool verbose = false;
  std::string client_config;  ///< layer 3: --client-config (default: the finding's)
};

int reduce_command(const ReduceCliOptions& o, bool budget_given, bool batch_given) {
  reduce_run::ReduceJob job;
  layers::ReduceRequest& r = job.request;
  r.path = o.finding;
  r.bucket = o.bucket;
  // Unset, each layer's reducer takes its own default (layer 3 counts client runs: a smaller budget).
  if (budget_given) r.budget = o.budget;
  if (batch_given) r.batch = o.batch;
  r.verbose = o.verbose;
  r.schema_path = o.adapters.schema;
  r.client_config = o.client_config;
  r.should_stop = [] { return exec::stop_requested(); };
  r.load_schema = [](const std::string& path) { return std::make_unique<schema::Ir>(load_ir_or_fail(path)); };
  job.start_adapters = [&o] { return o.adapters.start(); };
  return reduce_run::run_reduce(job);
}

const Registration kReduce{CommandSpec{
    "reduce",
    "Minimize a finding's input within its bucket; writes <name>.min.json beside it (or a whole run folder)",
    "  crosscheck reduce crosscheck-out/findings/diverge-0a1b2c.json\n"
    "  crosscheck reduce --bucket 3f2a9c0d11e4b7a8 --budget 500 crosscheck-out/findings/diverge-0a1b2c.json\n"
    "  crosscheck reduce --adapters cpp,python nightly/findings/crash-python-77aa.json\n"
    "  crosscheck reduce nightly/ --budget 5000      # a run folder: one finding per bucket\n"
    "  crosscheck reduce scen-out/findings/diverge-4c1d.json   # a layer-3 finding: its row, on its clients",
    [](CLI::App& sub) {
      auto o = std::make_shared<ReduceCliOptions>();
      o->adapters.add_to(sub);
      sub.add_option("finding", o->finding,
                     "A finding file written by run, fuzz or scenarios run; or a run folder: then the "
                     "smallest finding of "
                     "each bucket without a .min.json, --budget calls in total")
          ->required();
      sub.add_option("--bucket", o->bucket,
                     "The divergence bucket to keep (default: the finding's first contract divergence)");
      auto* budget = sub.add_option("--budget", o->budget,
                                    "Payload evaluations sent to the implementations, at most (a layer-3 "
                                    "finding: client runs, default 60; a scenarios run folder: 240)")
                         ->capture_default_str()
                         ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}));
      sub.add_option(
          "--client-config", o->client_config,
          "Layer 3: the client configuration (default: the finding's, else adapters/clients.json)");
      auto* batch = sub.add_option("--batch", o->batch,
                                   "Candidates per adapter batch (layer 3: rows per client run, default 32)")
                        ->capture_default_str()
                        ->check(CLI::Range(std::size_t{1}, std::size_t{4096}));
      sub.add_flag("--verbose", o->verbose, "One line per phase on stderr");
      return [o, budget, batch] { return reduce_command(*o, budget->count() > 0, batch->count() > 0); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
