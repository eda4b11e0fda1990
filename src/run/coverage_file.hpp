// coverage_file.hpp: RUN/coverage.json, the schema coverage a run reached (schemas/coverage.schema.json),
// and the coverage figures summary.json repeats. `fuzz` writes it as it goes (coverage/ computes what
// is in it), `merge` writes the union of its runs'; a resumed `fuzz`, `merge` and the reports read it.
// The coverage percentage is computed here and nowhere else.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "json/value.hpp"

namespace crosscheck::run {

/// `reached` of `pairs` (node, outcome) pairs, in percent; 100 when there is no pair to reach.
double reached_percent(std::uint64_t reached, std::uint64_t pairs);

/// The counts of a coverage: how many nodes are tracked, reached and reachable per outcome.
struct CoverageFigures {
  std::uint64_t tracked = 0, reached_accepted = 0, reached_rejected = 0;
  std::uint64_t possible_accepted = 0, possible_rejected = 0;
  /// The file tells impossible pairs apart (files of older versions do not: possible = tracked).
  bool has_possible = true;

  std::uint64_t reached() const { return reached_accepted + reached_rejected; }
  std::uint64_t possible_pairs() const { return possible_accepted + possible_rejected; }
  std::uint64_t impossible_pairs() const { return 2 * tracked - possible_pairs(); }
  /// Of the pairs a payload can reach: the figure to report.
  double percent() const { return reached_percent(reached(), possible_pairs()); }
  /// Of all tracked pairs, impossible ones included.
  double percent_all() const { return reached_percent(reached(), 2 * tracked); }
};

/// node id -> outcome bits (bit 0 accepted, bit 1 rejected).
using CoverageFlags = std::map<std::uint64_t, std::uint8_t>;

/// Layer 2: the reference validator's schema nodes that can both pass and fail
/// (coverage/canonical_coverage.hpp says which), and the outcomes the run's inputs gave them.
struct CanonicalCoverageFigures {
  std::uint64_t tracked = 0, reached_passed = 0, reached_failed = 0, reached_both = 0;
  /// Of the tracked nodes, those reached in both outcomes: the figure to report.
  double percent() const { return reached_percent(reached_both, tracked); }
  /// Of the (node, outcome) pairs.
  double percent_pairs() const { return reached_percent(reached_passed + reached_failed, 2 * tracked); }
};

struct CanonicalCoverageFile {
  CanonicalCoverageFigures figures;
  CoverageFlags flags;  ///< node id -> bits (bit 0 passed, bit 1 failed), tracked nodes only
  /// Locations ("<document>#<pointer>") of the tracked nodes never seen to pass (to fail).
  std::vector<std::string> never_passed, never_failed;
};

struct CoverageFile {
  CoverageFigures figures;
  CoverageFlags flags;             ///< the pairs reached
  CoverageFlags impossible_flags;  ///< the pairs no payload can reach (and none did)
  bool lists_impossible = true;    ///< false for a file of an older version (no impossibleFlags)
  /// Sources of the nodes never reached in an accepted (a rejected) payload although one could.
  std::vector<std::string> never_accepted, never_rejected;
  /// Sources of the nodes no payload visits, and of those only rejected payloads visit.
  std::vector<std::string> never_visited, always_rejected;
  /// Layer 2, when the run had the canonical layer ("canonical" in the file; absent before).
  std::optional<CanonicalCoverageFile> canonical;
};

/// summary.json's "coverage": tracked, reached*, possible*, percent, percentAll.
json::Value figures_to_json(const CoverageFigures& f);
/// The same figures read back from summary.json's "coverage" (schema-checked by its reader).
CoverageFigures figures_from_json(const json::Value& v);

json::Value to_json(const CoverageFile& c);

/// Writes RUN/coverage.json atomically.
void write_coverage(const std::filesystem::path& run_dir, const CoverageFile& c);
/// RUN/coverage.json, or nullopt when the folder has none. Fatal (exit 2) naming the file, the JSON
/// Pointer and the expectation when it is damaged or does not fit its schema.
std::optional<CoverageFile> read_coverage(const std::filesystem::path& run_dir);

}  // namespace crosscheck::run
