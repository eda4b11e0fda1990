// issue_drafts.hpp: one Markdown issue draft per deviating SDK and bucket of a run folder (crosscheck
// report --issues DIR, docs/reports.md "Issue drafts"), for the SDK's own tracker: a title that says
// what breaks, the bucket, the minimized witness (escaped), observed against expected for the reference
// and the other implementations, the standalone reproducer of src/repro, versions, the replay line.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "report/run_data.hpp"

namespace crosscheck::report {

struct IssueDraftOptions {
  /// Every implementation-defined bucket too, known or not (by default only the contract buckets that
  /// fail or are known, which the contract decides).
  bool implementation_defined = false;
  /// The rules of the rule catalogue a finding breaks, (id, paraphrase): the caller reads the catalogue.
  std::function<std::vector<std::pair<std::string, std::string>>(const run::Finding&)> rules;
};

struct IssueDraft {
  std::string file;  ///< "<sdk>-<bucket>.md" ('/' in an adapter name as '-')
  std::string sdk, bucket;
  std::string title;  ///< one line, Markdown
  std::string text;   ///< the whole draft, title first
};

/// The drafts of the run's contract buckets that fail or are known to the baseline (and with the option
/// its implementation-defined ones), one per implementation the bucket's blame names that is not the
/// reference; sorted by file name.
std::vector<IssueDraft> issue_drafts(const RunData& run, const IssueDraftOptions& options = {});

/// The index of the drafts (index.md): one line per draft, its title and file.
std::string issue_index(const RunData& run, const std::vector<IssueDraft>& drafts);

}  // namespace crosscheck::report
