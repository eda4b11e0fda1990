// summary_file.hpp: RUN/summary.json (format crosscheck-summary/1, schemas/summary.schema.json): the
// run's totals, who ran on which schema, coverage and how the run ended. `fuzz` writes it at its end
// (its absence means the run did not finish), `merge` writes the sum of its runs'; the reports, merge
// and a resumed `fuzz` read it. The run's verdict is not here: it is RUN/verdict.json
// (run/verdict_file.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "run/coverage_file.hpp"
#include "run/finding_file.hpp"
#include "util/result.hpp"

namespace crosscheck::run {

/// One implementation that took part, as the adapter introduced itself.
struct ImplementationRecord {
  std::string name, reported_name, language, version, language_version;
  std::optional<std::string> schema_manifest_sha256, source_commit, schema_bundle;
  std::uint64_t roots = 0;  ///< how many roots it supports
  bool reports_warnings = false;
};

/// What `merge` joined: how many runs, their keys, and those that had no summary.
struct MergedRuns {
  std::uint64_t runs = 0;
  std::vector<std::string> shards, without_summary;
};

using Counts = std::map<std::string, std::uint64_t>;

/// "layers": one comparison layer of the run: the inputs compared at it (layer 3: generated scenario
/// rows) and the roots it ran on.
struct LayerRecord {
  std::uint64_t inputs = 0;
  std::vector<std::string> roots;
};

/// "session": the fuzz session that wrote the file: its throughput and the CPU time of crosscheck
/// and of each adapter (campaign/summary_writer.hpp). merge writes none.
struct SessionRecord {
  double seconds = 0;
  std::uint64_t sent = 0, dropped = 0;
  double sent_per_second = 0;
  double generation_share = 1;
  double waited_seconds = 0;  ///< the generation thread waiting for the adapters
  double crosscheck_cpu = 0, generation_cpu = 0;
  std::map<std::string, double> adapter_cpu;  ///< adapter -> CPU seconds of its processes
  /// adapter -> inputs the session compared without it while it was stuck (ImplementationSet::skip_stuck)
  std::map<std::string, std::uint64_t> skipped_while_stuck;
};

struct Summary {
  std::string crosscheck_version;   ///< as read; to_json writes the running crosscheck's
  std::optional<std::string> seed;  ///< decimal digits of a uint64
  double elapsed = 0;               ///< run time in seconds, over every session
  std::uint64_t generated = 0, sent = 0, divergent_inputs = 0, contract_inputs = 0, buckets = 0;
  std::optional<std::uint64_t> findings;  ///< finding files in the folder
  Counts by_class, by_root, by_implementation;
  Counts by_layer;  ///< divergences per comparison layer ("structural", "canonical")
  /// Runs with the canonical layer: each implementation left out of it (or out of some of its
  /// documents) and why; nullopt when the run had no canonical layer.
  std::optional<std::map<std::string, std::string>> canonical_left_out;
  std::optional<CoverageFigures> coverage;
  std::optional<double> coverage_percent;  ///< coverage->percent() when there is one; kept from older files
  bool strict = false, interrupted = false;
  std::vector<ImplementationRecord> implementations;
  std::map<std::string, std::map<std::string, std::string>> skew_table;  ///< root -> impl -> closure
  std::map<std::string, std::set<std::string>> bucket_roots;  ///< bucket -> every root it was seen on
  std::vector<std::string> skewed_roots, roots;
  /// Each layer of the run (nothing from an older crosscheck: where each layer ran is then unknown).
  std::map<std::string, LayerRecord> layers;
  std::optional<MergedRuns> merged;
  std::optional<SessionRecord> session;
};

/// Adds one finding to the counts summary.json keeps: divergent_inputs, contract_inputs (a finding
/// with a divergence that is not implementation-defined), by_class, by_root, by_layer,
/// by_implementation and bucket_roots. The counting of `scenarios run` and of layer 3 in `fuzz`.
void count_finding(Summary& s, const Finding& finding);

json::Value to_json(const Summary& s);
/// `v` read as a summary; the error names the JSON Pointer and what was expected.
Result<Summary, std::string> summary_from_json(const json::Value& v);

/// Writes RUN/summary.json atomically.
void write_summary(const std::filesystem::path& run_dir, const Summary& s);
/// RUN/summary.json, or nullopt when the folder has none. Fatal (exit 2) naming the file, the JSON
/// Pointer and the expectation when it is of another format version or does not fit its schema.
std::optional<Summary> read_summary(const std::filesystem::path& run_dir);

}  // namespace crosscheck::run
