// classify.hpp: sorting a run's divergences into new, known and stale against a baseline.
//
// The unit is the bucket. A bucket is known when every occurrence of it is matched by some entry,
// new otherwise (an entry limited to one root leaves the bucket's other roots new). A bucket is a
// contract bucket when any occurrence is not implementation-defined; only new contract buckets fail
// a run, and new implementation-defined ones too under --strict.
//
// An entry with a bucket pattern that matched nothing is stale: "not seen in this run". That is
// information, not a failure: a fuzz run does not reach every fault every time (replay the entry's
// witness to tell "not reached" from "fixed"). Entries none of whose implementations took part in the
// run, and matrix-only entries (cases, no bucket), are not applicable to it.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "baseline/baseline.hpp"
#include "baseline/run_findings.hpp"
#include "json/value.hpp"
#include "verdict/blame.hpp"
#include "verdict/verdict.hpp"

namespace crosscheck::baseline {

struct BucketReport {
  std::string bucket, signature, cls;
  std::string layer;  ///< the comparison layer of its divergences (a bucket id belongs to one layer)
  std::set<std::string> roots, implementations;
  bool contract = false;          ///< some occurrence is not implementation-defined
  bool is_new = false;            ///< some occurrence matched no entry
  std::set<std::string> entries;  ///< ids of the entries that matched
  std::size_t occurrences = 0;
  Occurrence witness;            ///< an unmatched occurrence when new; minimized, then smallest, preferred
  bool reference_wrong = false;  ///< an entry that matched says the reference is wrong here
  verdict::Blame blame;          ///< who deviates in the witness
};

struct Classification {
  std::vector<BucketReport> buckets;        ///< new first, then known; by class and signature
  std::vector<std::string> stale;           ///< entry ids: applicable, matched nothing
  std::vector<std::string> not_applicable;  ///< entry ids
  std::size_t new_contract = 0, new_defined = 0, known = 0;

  /// The run's verdict (verdict/verdict.hpp decides) against `baseline` (nullopt: none).
  verdict::Verdict verdict(bool strict, std::optional<std::string> baseline) const;
  /// verdict(strict, ...).exit_code(): 1 when the run fails, else 0.
  int exit_code(bool strict) const;
};

/// `implementations`: those that took part in the run (for stale vs not applicable).
Classification classify(const Baseline& baseline, const std::vector<Occurrence>& occurrences,
                        const std::set<std::string>& implementations);

/// The report a person reads: one block per new bucket, known buckets per entry (each bucket with
/// `verbose`), stale entries, and a closing count line.
void print_classification(std::ostream& out, const Baseline& baseline, const Classification& c, bool strict,
                          bool verbose);

/// The machine-readable result (format "crosscheck-baseline-check/1").
json::Value classification_to_json(const Baseline& baseline, const std::vector<std::string>& runs,
                                   const Classification& c, bool strict);

/// What a recorded check (DIR/baseline-check.json) says, as the report needs it: the baseline it
/// was against, each bucket it sorted (new or known, the entries that know it, whether an entry
/// moves the blame to the reference) and the stale entries. The one reader of the file that
/// classification_to_json writes.
struct RecordedCheck {
  struct Bucket {
    std::string bucket;
    bool known = false;
    bool reference_wrong = false;
    std::vector<std::string> entries;
  };
  std::string baseline;
  std::vector<Bucket> buckets;
  std::vector<std::string> stale;
};
/// DIR/baseline-check.json, or nullopt when there is none. Fatal (exit 2) naming the file, the JSON
/// Pointer and the expectation when it is of another format version or breaks its schema.
std::optional<RecordedCheck> read_baseline_check(const std::filesystem::path& dir);

/// One entry per new contract bucket (and new implementation-defined one when `strict`: what makes
/// check fail) for a person to triage: reason "TODO: triage", link "TODO: link",
/// bucket = the bucket's signature (its id when it has none), class, the deviating implementations
/// (verdict/blame.hpp), and the witness. Ids "<class>-<bucket id>", never one `baseline` has.
std::vector<Entry> entries_for_new(const Baseline& baseline, const Classification& c, bool strict);

/// Classifies the findings of `dir` against `baseline` (nullptr: none, every bucket is new), writes
/// DIR/baseline-check.json when there is a baseline and the verdict as DIR/verdict.json, decided by
/// `command`, and returns the classification (`fuzz` prints its own account of it).
Classification judge_run_folder(const Baseline* baseline, const std::string& dir, bool strict,
                                const char* command);

/// `scenarios run --baseline`: classifies the findings of `dir`, prints the report to `out`,
/// writes it as DIR/baseline-check.json, the verdict as DIR/verdict.json, and returns the exit code.
int check_run_folder(const Baseline& baseline, const std::string& dir, bool strict, std::ostream& out);

/// The verdict of `dir` with no baseline (every bucket new), as `fuzz` without --baseline and `merge`
/// decide it; also written as DIR/verdict.json, decided by `command`.
verdict::Verdict judge_run_folder_without_baseline(const std::string& dir, bool strict, const char* command);

/// Witness inputs up to this size are stored in an entry; bigger ones only by file name.
constexpr std::size_t kMaxWitnessBytes = 16 * 1024;

}  // namespace crosscheck::baseline
