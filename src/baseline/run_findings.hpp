// run_findings.hpp: the findings of a run folder, read back for baselines, matrix seeding and reports.
//
// A run folder is what `crosscheck fuzz --out DIR` writes (findings in DIR/findings) or what
// `crosscheck run --out DIR` writes (findings in DIR itself), listed by run/finding_files.hpp: each
// finding may have a minimized sibling, the better witness of the buckets it shares with the
// original, never a new finding.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "run/finding_file.hpp"

namespace crosscheck::baseline {

struct RunFinding {
  std::string path;  ///< the original finding file
  run::Finding finding;
  std::optional<std::string> min_path;  ///< the .min.json beside it, when there is one
  std::optional<run::Finding> minimized;

  /// The minimized finding when there is one, else the original.
  const run::Finding& best() const { return minimized ? *minimized : finding; }
  const std::string& best_path() const { return min_path ? *min_path : path; }
};

struct RunFolder {
  std::string dir;                   ///< as given
  std::string findings_dir;          ///< where the finding files are
  std::vector<RunFinding> findings;  ///< sorted by file name
  /// Implementations that took part: run.json's "implementations" when present, plus every
  /// implementation named in a finding's results.
  std::set<std::string> implementations;
};

/// Reads every finding of a run folder (DIR/findings if it exists, else DIR). Throws Fatal (exit 2)
/// naming the folder or the file and what is wrong with it (missing, not a finding, another version).
RunFolder load_run_folder(const std::string& dir);

/// One divergence of one finding, with the input that best shows it.
struct Occurrence {
  std::string root;
  core::Divergence divergence;
  std::string finding;  ///< the witness file (the minimized one when it shows this bucket)
  std::string input;    ///< the witness bytes
  std::string replay;   ///< the witness's replay command
  bool minimized = false;
  std::vector<core::ImplResult> results;  ///< the witness's results (who deviates, verdict/blame.hpp)
};

/// Every divergence of every finding of the folders, the minimized sibling as witness where it shows
/// the same bucket.
std::vector<Occurrence> occurrences(const std::vector<RunFolder>& runs);

}  // namespace crosscheck::baseline
