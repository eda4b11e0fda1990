// known_cases.hpp: the known failures of a case-based run (matrix run, fixtures run): a baseline's
// entries with "cases", or the older {"known": {"<implementation>": {"<case id>": "reason"}}}, and
// what each (implementation, case) cell becomes against them.
//
// An exact case id promises that the cell fails: a passing cell it names is stale (the entry should
// go). A glob promises nothing per cell, but a glob that covered no failing cell of an implementation
// of the run is stale as a whole.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "baseline/baseline.hpp"

namespace crosscheck::baseline {

/// Reads the known-failure file (empty path: none). Throws Fatal (exit 2) naming the file and field.
std::vector<Entry> load_known_cases(const std::string& path);

enum class CaseState { kPass, kFail, kKnown, kStale };

struct CaseCell {
  CaseState state = CaseState::kPass;
  std::string entries;  ///< ids of the entries covering the cell, ", "-separated ("" when none)
};

class KnownCases {
 public:
  explicit KnownCases(std::vector<Entry> entries) : entries_(std::move(entries)) {}

  /// The cell of `case_id` on `implementation`, which failed or passed on its own.
  CaseCell judge(const std::string& implementation, const std::string& case_id, bool failed);

  /// After every cell: one line per stale glob (of an entry naming an implementation in
  /// `implementations`), and in `unknown_ids` one line per exact case id not among `case_ids`.
  std::vector<std::string> stale_patterns(const std::vector<std::string>& implementations,
                                          const std::set<std::string>& case_ids,
                                          std::vector<std::string>& unknown_ids) const;

  bool empty() const { return entries_.empty(); }

 private:
  std::vector<Entry> entries_;
  std::set<std::string> used_globs_;  // "entry id\npattern" that matched a failing cell
};

}  // namespace crosscheck::baseline
