// verdict.hpp: does a run fail, and with which exit code. Decided here and nowhere else: `fuzz`,
// `run`, `merge`, `baseline check`, the reports and the CI scripts (through verdict.json) all ask.
//
// The unit is the bucket. A bucket is known when a baseline covers every occurrence of it, new
// otherwise (with no baseline every bucket is new). A bucket is implementation-defined when every
// occurrence was on an implementation-defined input, a contract bucket otherwise. A new contract
// bucket fails the run; a new implementation-defined one only under --strict; known ones never.
// Baseline entries that matched nothing are stale: information, never a failure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::verdict {

/// Does this one bucket fail the run?
bool bucket_fails(bool known, bool implementation_defined, bool strict);

struct Verdict {
  std::size_t new_contract = 0;                ///< new contract buckets
  std::size_t new_implementation_defined = 0;  ///< new implementation-defined buckets
  std::size_t known = 0;                       ///< buckets the baseline covers
  std::size_t stale = 0;                       ///< baseline entries that matched nothing
  /// Stale entries whose witness no longer diverges or that have none, counted only when asked to
  /// fail on them (baseline check --replay --fail-stale): they fail the run.
  std::size_t failing_stale = 0;
  bool strict = false;
  std::optional<std::string> baseline;  ///< the baseline it was judged against; none: every bucket is new

  /// Counts one bucket.
  void add_bucket(bool known, bool implementation_defined);
  bool fails() const;
  /// kExitDivergence when it fails, else kExitClean.
  int exit_code() const;
  /// "FAILED: 2 new contract buckets, 0 new implementation-defined, 5 known, 1 stale baseline entry".
  std::string describe() const;
};

/// Verdicts of parts of one run (shards): it fails when any part fails; counts add up.
Verdict combine(const Verdict& a, const Verdict& b);

/// {"fails", "exitCode", "strict", "baseline", "newContract", "newImplementationDefined", "known",
/// "stale", "failingStale"} (schemas/verdict.schema.json, without "format").
json::Value to_json(const Verdict& v);
/// The error names the member (JSON Pointer below `v`) and what was expected.
Result<Verdict, std::string> from_json(const json::Value& v);

}  // namespace crosscheck::verdict
