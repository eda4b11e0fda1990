// finding_files.hpp: the one listing of a run folder's finding files.
//
// A finding is <kind>-...json (diverge-, crash-, timeout-; findings/finding_store.hpp names them). The
// reducer may write <name>.min.json beside it: the minimized file is the better witness of the
// buckets it shares with the original, never a finding of its own. A .min.json whose original is gone
// (deleted by a person, or a partial copy) stands for itself: it is the finding, so that nothing found
// is lost. Every reader of findings/ (fuzz resume, merge, selftest, report, baseline, reduce, matrix
// seed) lists it here, with this one filter.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace crosscheck::run {

struct FindingFiles {
  std::string name;                     ///< file name of the finding (a .min.json when orphaned)
  std::string path;                     ///< dir/name
  std::optional<std::string> min_path;  ///< dir/<name without .json>.min.json, when the reducer wrote it
  bool orphan_minimized = false;        ///< `path` is a .min.json whose original is gone
};

/// A finding file's name: diverge-/crash-/timeout-, ".json", not a temporary (".name.tmp-PID").
bool is_finding_name(const std::string& name);
/// Ends in ".min.json".
bool is_minimized_name(const std::string& name);
/// "x.json" -> "x.min.json"; a .min.json names itself.
std::string minimized_path_for(const std::string& finding_path);

/// Every finding of `dir`, sorted by name, each with its minimized sibling. Throws Fatal (exit 2)
/// naming the folder when it cannot be listed. A missing folder lists nothing.
std::vector<FindingFiles> list_finding_files(const std::filesystem::path& dir);

/// Where a run folder keeps its findings: DIR/findings for `fuzz`, DIR itself for `run --out DIR`.
std::filesystem::path findings_dir_of(const std::filesystem::path& run_dir);

}  // namespace crosscheck::run
