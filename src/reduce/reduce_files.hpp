// reduce_files.hpp: reducing finding files and whole run folders.
//
// The original finding is never touched: the minimized one is findings/<name>.min.json beside it
// (format crosscheck-finding/1 plus "reduction": {"from", "calls", "bytesBefore", "bytesAfter"}),
// written atomically. In a run folder with an events.jsonl, each reduction appends a "reduced"
// event {file, minimized, calls, bytesBefore, bytesAfter, bucket}.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "reduce/reducer.hpp"
#include "util/result.hpp"

namespace crosscheck::reduce {

struct FileReduction {
  std::string finding_path;  ///< the file that was reduced
  std::string min_path;      ///< the minimized finding beside it
  std::string bucket;
  std::size_t bytes_before = 0;  ///< of the file's input
  ReduceResult result;
  bool written = false;  ///< false: an existing .min.json was at least as small and was kept
  std::string note;      ///< what happened, one line
};

/// The bucket to reduce `finding` (loaded from `path`) for: `bucket` when the finding has it, else
/// default_bucket; the error names the file and lists the finding's buckets.
struct Target {
  std::string bucket;
};
Result<Target, std::string> target_bucket(const std::string& path, const run::Finding& finding,
                                          const std::optional<std::string>& bucket);

/// Loads `path`, reduces its input for `bucket` (default: default_bucket), and writes the .min.json
/// (an existing one is replaced only by a smaller input). The error, naming the file, covers an
/// unreadable file, a file that is not a finding or is of another format version, a bucket the
/// finding does not have, and a bucket that no longer reproduces; nothing is written then.
Result<FileReduction, std::string> reduce_finding_file(const std::string& path,
                                                       const std::optional<std::string>& bucket,
                                                       exec::ImplementationSet& set,
                                                       const ReduceOptions& options);

struct RunReduceOptions {
  std::size_t total_budget = 2000;        ///< calls for the whole folder
  std::size_t per_finding_budget = 2000;  ///< at most this many for one finding
  bool include_timeouts = false;          ///< a hanging candidate costs a whole deadline
  double max_seconds = 0;                 ///< wall clock for the whole folder (0: none)
  ReduceOptions base;                     ///< oracle, batch, should_stop, log (budget is set per finding)
};

struct RunReduction {
  std::vector<FileReduction> reduced;
  std::vector<std::string> skipped;  ///< "bucket <id> (<file>): why", one per bucket left alone
  std::size_t calls = 0;
  std::size_t buckets_left = 0;  ///< buckets without a .min.json when the budget or a stop ended it
};

/// Reduces, for every bucket of `run_dir`/findings that no .min.json covers yet, the smallest input
/// of that bucket, sharing `total_budget` fairly between them (contract buckets first, then the
/// smallest inputs). Findings that
/// do not load, and minimized findings that cannot be written (a full disk), are skipped with a
/// note, never fatal: the run's own findings matter more.
RunReduction reduce_run_folder(const std::string& run_dir, exec::ImplementationSet& set,
                               const RunReduceOptions& options, std::ostream& log);

/// A payload for a terminal: printable ASCII as is, everything else escaped (\n, \t, \xNN).
std::string printable(const std::string& bytes, std::size_t max_bytes = 4096);

}  // namespace crosscheck::reduce
