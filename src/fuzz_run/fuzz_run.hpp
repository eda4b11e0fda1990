// fuzz_run.hpp: `crosscheck fuzz` from its options to its exit code: the registered layers of the run
// in turn (the payload layers through the adapters' campaign, src/campaign; each layer with batches of
// its own through its Layer::run_batches, for its share of --time), the event log's end after the
// last, the reduction at the end (src/reduce), the verdict (src/verdict through src/baseline), the
// reports and the story the run ends with. It names no layer: src/layers/registry has them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/implementation_set.hpp"
#include "schema/ir.hpp"

namespace crosscheck::fuzz_run {

struct FuzzOptions {
  std::string time;  ///< --time as given ("" for none)
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
  std::string shard;   ///< "I/N"
  std::string layers;  ///< --layers, comma-separated; empty: every layer an implementation lists, and
                       ///< every layer with batches of its own that is available
  /// The layers' own settings by flag name without dashes (clients, client-config, scenario-batch,
  /// scenario-batches, contextual-share for layer 3): Layer::run_batches reads its own.
  std::map<std::string, std::string> layer_settings;
  bool deterministic = false;
  bool verbose = false;  ///< --verbose: the tables, reductions, batches and every bucket on the terminal too
  std::string baseline;  ///< --baseline: only buckets it does not know fail the run
  /// Adapter calls for reducing the run's findings at the end, in total (0: off). Unset: up to
  /// kReduceCallsPerBucket for each bucket, or 0 for a --deterministic or --shard run (whose folders
  /// must merge into exactly one run's).
  std::optional<std::size_t> reduce_budget;
  std::string schema_path;  ///< --schema as given, for the findings' replay commands
  double deadline_s = 10;   ///< --deadline
  /// Loads the schema (Fatal exit 2 on a bad one) and starts the adapters (the CLI's shared options).
  std::function<schema::Ir()> load_schema;
  std::function<std::unique_ptr<exec::ImplementationSet>()> start_adapters;
};

/// Runs it; returns the exit code of the verdict. Throws Fatal with the exit code of a usage error (a
/// bad --layers, --shard, --time or --baseline: before anything starts) or a failure.
int run_fuzz(const FuzzOptions& options);

}  // namespace crosscheck::fuzz_run
