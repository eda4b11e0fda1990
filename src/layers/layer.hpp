// layer.hpp: a comparison layer as a plug-in (ARCHITECTURE.md, "How to add ... a layer").
//
// A layer is what `fuzz --layers` names: its name and number, its reference implementation, how its
// unit of work runs in a fuzz run, its coverage and how shards of it merge, and its line in the
// run's story, its reduction hooks. The fuzz run (src/fuzz_run), merge (src/campaign/merge), the reduce
// command (src/reduce_run) and the CLI iterate over the registered layers (src/layers/registry: the
// built-in ones from layers.def, others registered at run time, as a test does) and name none of them.
//
// Two kinds of unit of work:
//  - the adapters' payload batches (layers 1 and 2): the layer turns on its comparison in the
//    core::Layers every payload batch carries (enable_on_payloads), and the adapters' campaign
//    compares every input sent at it;
//  - batches of its own (layer 3: generated scenario batches to the SDK interop clients):
//    run_batches runs them for the layer's share of the run, writing its findings through src/run
//    and its progress and findings to the run's event log, and adds its counts to summary.json.
// Its divergence classes are entries of src/core/divergence_classes.def; its findings, buckets,
// verdict and reports go through src/run, src/verdict and src/report like any layer's.
#pragma once

#include <cstdint>
#include <functional>
#include <iomanip>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/layers.hpp"

// Only pointers to these cross the interface: layers below src/run (layer 1's comparison is used by it)
// must not depend on it.
namespace crosscheck::run {
class RunEvents;
}
namespace crosscheck::schema {
class Ir;
}

namespace crosscheck::layers {

/// What a layer is, for people and for `--layers`.
struct LayerInfo {
  std::string name;       ///< stable: --layers, run folders, findings' "layer" and baselines store it
  int number = 0;         ///< its place in the order of the run (1, 2, 3, ...)
  std::string title;      ///< what it compares, in a few words (--layers' help)
  std::string reference;  ///< the reference implementation it compares against
  std::string unit;       ///< what its inputs are called in the story ("inputs", "scenario rows")
};

/// What a layer's own batches get from the fuzz run.
struct LayerRun {
  std::string out;  ///< the run folder
  std::uint64_t seed = 1;
  bool deterministic = false;
  std::uint64_t shard_index = 0, shard_count = 1;
  /// The layer's share of --time, or none for a --runs run (then the number of batches its settings say).
  std::optional<double> seconds;
  const schema::Ir* ir = nullptr;            ///< the run's schema
  std::string schema_path;                   ///< --schema as given ("" for the default), for replay commands
  double deadline_s = 10;                    ///< the adapters' --deadline
  std::vector<std::string> implementations;  ///< the running adapters (cpp, python, python/direct, ...)
  bool asked = false;                        ///< --layers named it (else it joined by default)
  bool verbose = false, live = false;
  /// The layer's own command-line settings by flag name without dashes ("clients", "scenario-batch").
  std::map<std::string, std::string> settings;
  std::function<bool()> should_stop;
  run::RunEvents* events = nullptr;  ///< the run's event log, opened (its totals go on from summary.json)
  std::ostream* log = nullptr;
};

/// `crosscheck reduce` on a finding file or a run folder (Layer::reduce_file, Layer::reduce_folder).
struct ReduceRequest {
  std::string path;                   ///< the finding file, or the run folder
  std::string bucket;                 ///< --bucket ("" for the finding's first contract divergence)
  std::optional<std::size_t> budget;  ///< --budget when given
  std::optional<std::size_t> batch;   ///< --batch when given
  bool verbose = false;
  std::string schema_path;    ///< --schema ("" for the finding's or the default)
  std::string client_config;  ///< a layer's configuration flag (layer 3: --client-config)
  /// Loads a schema path ("" for the installed one); Fatal exit 2 on a bad one (the CLI's --schema).
  std::function<std::unique_ptr<schema::Ir>(const std::string&)> load_schema;
  std::function<bool()> should_stop;  ///< Ctrl-C
};

/// What a layer's reduction of a run folder did.
struct FolderReduction {
  bool reduced = false;       ///< the folder held findings of the layer, and it reduced them
  bool whole_folder = false;  ///< the folder holds nothing else (a `scenarios run` folder)
  int exit_code = 0;
};

/// What a layer's own batches did: its line in the run's story.
struct LayerOutcome {
  bool ran = false;    ///< false: left out (the reason is on the log)
  std::string note;    ///< the story's figure ("rule coverage 98.3%")
  double seconds = 0;  ///< the time it took (summary.json's elapsed includes it)
};

/// A percentage as the story prints it: "95.6%".
inline std::string percent_text(double x) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << x << "%";
  return s.str();
}

class Layer {
 public:
  virtual ~Layer() = default;
  virtual const LayerInfo& info() const = 0;

  /// Layers on the adapters' payload batches: turns the layer on in `layers` and returns true.
  virtual bool enable_on_payloads(core::Layers& layers) const { return false; }
  /// Whether an implementation of the run lists the layer (a payload layer joins a run whose --layers
  /// is unset only then).
  virtual bool listed_by(const std::vector<std::vector<std::string>>& implementation_layers) const {
    return false;
  }
  /// A payload layer's figure in the story, from the adapters' campaign's figures
  /// ("schema-coverage", "canonical-coverage"); "" for none.
  virtual std::string payload_note(const std::map<std::string, double>& figures) const { return ""; }

  /// Layers with batches of their own (they join a run whose --layers is unset when available()).
  virtual bool has_own_batches() const { return false; }
  /// Its share of --time beside the payload layers (all of it when it runs alone), from its settings.
  virtual double time_share(const std::map<std::string, std::string>& settings) const { return 0; }
  /// Runs the layer's batches (see LayerRun), adds its counts to summary.json. Throws Fatal with the
  /// exit code of a failure (a layer named by --layers that cannot run: exit 2).
  virtual LayerOutcome run_batches(const LayerRun& run) const { return {}; }
  /// Whether the layer can run here (e.g. an interop client of the running adapters is available);
  /// when it cannot and was asked for, throws Fatal; when not asked, says so on the log and returns
  /// false. Called before the run starts.
  virtual bool available(LayerRun& run) const { return has_own_batches(); }

  /// Merge: reads the layer's own run-folder files (beyond findings, events, summary and coverage.json,
  /// which merge by themselves) of `shards` and of `existing` (the folder merged into, when there is
  /// one), throwing Fatal for a bad one before anything is written, and returns what writes their
  /// join into the merged folder (empty: nothing to write).
  using MergeWriter = std::function<void(const std::string& out)>;
  virtual MergeWriter merge_files(const std::vector<std::string>& shards,
                                  const std::optional<std::string>& existing) const {
    return {};
  }
  /// `crosscheck reduce FINDING` on a finding of this layer that the payload reducer cannot reduce
  /// (layer 3: a scenario row, on its clients): its exit code; nullopt when the finding is not one.
  virtual std::optional<int> reduce_file(const ReduceRequest& request) const { return std::nullopt; }
  /// `crosscheck reduce DIR`: this layer's findings of the folder, before the payload reducer's.
  virtual FolderReduction reduce_folder(const ReduceRequest& request) const { return {}; }
  /// What `fuzz` says at its end about reducing this layer's findings ("" for nothing).
  virtual std::string reduce_note(const std::string& out) const { return ""; }
};

}  // namespace crosscheck::layers
