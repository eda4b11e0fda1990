// merge_folder.hpp: one folder crosscheck merge joins (a fuzz output folder or an earlier merge),
// read completely and checked before anything is written: run.json and its format, the finding
// files and their .min.json copies (listed by run/finding_files.hpp), the corpus entries' names,
// coverage.json, events.jsonl's complete lines, and the runs it stands for (merge.json's sources, or
// the run itself with its summary), each read by its owner in run/. Also the check that folders
// share one configuration (seed and shard aside).
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "json/value.hpp"
#include "run/coverage_file.hpp"
#include "run/merge_file.hpp"
#include "run/run_file.hpp"

namespace crosscheck::campaign::merging {

struct FindingFile {
  std::string name;  ///< a .min.json whose original is gone stands for itself (run/finding_files.hpp)
  json::Value value;
  std::string root;
  std::vector<std::string> buckets;
  std::uint64_t iteration = std::numeric_limits<std::uint64_t>::max();
  bool existing = false;  // already in OUT
};

struct CorpusFile {
  std::string root, name;
  std::filesystem::path path;  // read when copied: a night's corpora need not fit in memory together
};

/// One folder, read completely.
struct Folder {
  std::filesystem::path path;
  run::RunConfig run;
  std::vector<FindingFile> findings;
  std::map<std::string, json::Value> minimized;  // "<name>.min.json" beside its finding -> content
  std::vector<CorpusFile> corpus;
  std::optional<run::CoverageFile> coverage;
  std::vector<std::string> events;        // complete lines, as written
  bool is_merge = false;                  // has merge.json: its events already say their shard
  std::vector<run::MergeSource> sources;  // the runs it stands for
};

/// Reads and checks the folder; Fatal (exit 2) naming the folder or file when it is not one.
Folder load_folder(const std::filesystem::path& path, std::ostream& log);

/// Fatal naming the first of `folders` whose run.json differs from `reference`'s in anything but
/// seed, shard and deterministic (run::RunConfig::configuration_difference).
void check_same_configuration(const Folder& reference, const std::vector<Folder>& folders);

}  // namespace crosscheck::campaign::merging
