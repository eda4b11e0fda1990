// run_file.hpp: RUN/run.json, the run's configuration (format crosscheck-fuzz/1,
// schemas/run.schema.json). `fuzz` writes it first and refuses a folder whose run.json differs, so that
// a resumed run never mixes two runs' findings; `merge` writes the configuration of the runs it joins;
// the reports, baseline and merge read it.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "json/value.hpp"

namespace crosscheck::run {

/// run.json's "command" of a `crosscheck scenarios run` folder.
inline constexpr const char* kScenariosCommand = "scenarios run";

struct RunConfig {
  std::string seed;                  ///< the seed, as its decimal digits (a uint64)
  std::vector<std::string> roots;    ///< --root options; empty: every root
  std::string implementations;       ///< the adapters, comma-separated ("cpp,python,rust")
  std::string schema;                ///< the schema manifest's sha256, or the schema path
  std::optional<std::string> shard;  ///< "i/n" of a sharded run
  bool deterministic = false;
  /// The command whose run this is when it is not fuzz, run or merge: kScenariosCommand for a
  /// layer-3 run (its folder has no coverage.json, its findings are scenario rows). "": absent.
  std::string command;

  /// The names of `implementations`.
  std::set<std::string> implementation_names() const;
  /// What must agree between runs that are merged (seed, shard and deterministic may differ):
  /// "" when `other` agrees, else "roots [..] vs [..]; schema ..." naming each difference.
  std::string configuration_difference(const RunConfig& other) const;
  bool operator==(const RunConfig&) const = default;
};

json::Value to_json(const RunConfig& c);

/// Writes RUN/run.json atomically.
void write_run_config(const std::filesystem::path& run_dir, const RunConfig& c);
/// RUN/run.json, or nullopt when the folder has none. Fatal (exit 2) naming the file, the JSON Pointer
/// and the expectation when it is of another format version or does not fit its schema.
std::optional<RunConfig> read_run_config(const std::filesystem::path& run_dir);

}  // namespace crosscheck::run
