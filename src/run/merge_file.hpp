// merge_file.hpp: RUN/merge.json (format crosscheck-merge/1, schemas/merge.schema.json): the runs a
// `crosscheck merge` folder stands for, each counted once (by seed and shard), with the summary each
// had, so that merging again, or merging a merge, never counts a run twice. `merge` writes and reads it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "run/summary_file.hpp"

namespace crosscheck::run {

struct MergeSource {
  std::string key;   ///< "seed 3, shard 0/2": what makes two records the same run
  std::string path;  ///< the folder it was merged from, absolute
  std::optional<std::string> seed, shard;
  /// The run's summary.json; none for a run killed before its end, whose input counts then come from
  /// its state.json (and are 0 when it had none).
  std::optional<Summary> summary;
  std::uint64_t generated = 0, sent = 0;
};

struct MergeRecord {
  std::vector<MergeSource> sources;
};

json::Value to_json(const MergeRecord& m);

/// Writes RUN/merge.json atomically.
void write_merge_record(const std::filesystem::path& run_dir, const MergeRecord& m);
/// RUN/merge.json, or nullopt when the folder is no merge. Fatal (exit 2) naming the file, the JSON
/// Pointer and the expectation when it is of another format version or does not fit its schema.
std::optional<MergeRecord> read_merge_record(const std::filesystem::path& run_dir);

}  // namespace crosscheck::run
