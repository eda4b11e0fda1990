// run_data.hpp: reading a `crosscheck fuzz` output folder for the reports.
//
// Reads run.json, summary.json, coverage.json, events.jsonl and findings/ (through run/, which owns
// those files and lists the findings with their minimized siblings), and groups the findings into
// buckets. A folder that is not a run, is unfinished or comes from another version
// of crosscheck is refused with a Fatal (exit 2) naming the file and what was expected.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "json/value.hpp"
#include "run/coverage_file.hpp"
#include "run/event_log.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "run/run_file.hpp"
#include "run/summary_file.hpp"
#include "verdict/blame.hpp"
#include "verdict/verdict.hpp"

namespace crosscheck::report {

struct FindingFile {
  std::string name;  ///< "diverge-<hash>.json"
  std::string path;  ///< as reached from the report's run folder argument: RUN_DIR/findings/<name>
  run::Finding original;
  std::optional<run::Finding> minimized;  ///< findings/<name>.min.json, when the reducer wrote one
  std::string min_path;
  std::optional<run::Reduction> reduction;  ///< the minimized finding's "reduction"
};

/// One bucket seen in the run's finding files.
struct Bucket {
  std::string id;
  core::DivergenceClass cls = core::DivergenceClass::kAcceptance;
  std::string root;                ///< root of the shown payload
  std::vector<std::string> roots;  ///< roots of all its files, sorted (a bucket is one fault, on any root)
  std::string signature;
  bool implementation_defined = true;      ///< every occurrence was on an implementation-defined input
  std::vector<std::size_t> files;          ///< indices into RunData::findings
  std::size_t shown = 0;                   ///< the file whose payload is shown (the smallest)
  bool shown_minimized = false;            ///< the shown payload is that file's .min.json
  core::Divergence divergence;             ///< as recorded in the shown finding
  verdict::Blame blame;                    ///< who deviates in the shown finding, and on what basis
  bool reference_wrong = false;            ///< a baseline entry covering it says the reference is wrong
  bool known = false;                      ///< every occurrence is covered by the baseline
  std::vector<std::string> known_entries;  ///< "id: reason (link)" of the baseline entries that cover it
  const run::Finding& finding(const std::vector<FindingFile>& all) const;
};

struct RunData {
  std::string dir;
  run::RunConfig run;                         ///< run.json
  std::optional<run::Summary> summary;        ///< summary.json; none for a partial run
  std::optional<run::CoverageFile> coverage;  ///< coverage.json; none for a partial run that has none
  bool partial = false;  ///< summary.json absent (allowed with LoadOptions::allow_partial)
  run::EventFile events;
  std::vector<FindingFile> findings;
  std::vector<Bucket> buckets;  ///< most serious first (contract before implementation-defined)
  std::vector<std::string> implementations;
  std::vector<std::string> roots;  ///< every root known to the run (skew table, fuzzed, found)
  std::map<std::string, std::map<std::string, std::string>> skew;  ///< root -> implementation -> closure
  std::vector<std::string> skewed_roots;
  bool strict = false;
  /// The baseline the buckets were sorted with ("" when none): --baseline, or the one named by the
  /// RUN_DIR/baseline-check.json that `fuzz --baseline` (or `baseline check --json`) left.
  std::string baseline;
  /// Where the sorting came from, for a reader: "--baseline", "baseline-check.json" (the check
  /// recorded in the folder), "baseline-check.json, sorted again" (the record missed buckets found
  /// since, so the baseline it names was applied again), or "" (none).
  std::string baseline_origin;
  std::vector<std::string> stale_entries;  ///< baseline entries that matched nothing in this run
  std::vector<std::string> notes;          ///< things a reader should know (cut event lines, orphan files)

  /// "crosscheck replay <file>" for a finding file path, shell-quoted.
  static std::string replay_command(const std::string& path);
  /// summary.json, or an empty summary (every count 0) for a partial run.
  const run::Summary& totals() const;
  /// Does this bucket fail the run: not known to the baseline, and a contract divergence (or any,
  /// under --strict)?
  bool fails(const Bucket& b) const {
    return verdict::bucket_fails(b.known, b.implementation_defined, strict);
  }
  /// The run's verdict over these buckets (verdict/verdict.hpp).
  verdict::Verdict verdict() const;
};

struct LoadOptions {
  /// Report a folder without summary.json (an interrupted or still running fuzz) from what is there.
  bool allow_partial = false;
  /// A baseline (crosscheck-baseline/1) to sort the buckets into new and known with. Without one, the
  /// check recorded in RUN_DIR/baseline-check.json is used when present (docs/reports.md, "Which
  /// baseline a report uses").
  std::string baseline;
  /// Use no baseline at all, not even a recorded check: every contract bucket fails.
  bool no_baseline = false;
};

/// Throws Fatal (exit 2) naming the file for a folder that is not a finished run of this version.
RunData load_run(const std::string& dir, const LoadOptions& options = {});

}  // namespace crosscheck::report
