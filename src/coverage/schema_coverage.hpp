// schema_coverage.hpp: which outcome-deciding IR nodes a fuzz run has exercised, and how.
//
// Outcome-deciding nodes reachable from a root are the ones the decoder reports through CoverageSink: union
// arms and unions, enums, literals, and objects with required members or forbidden sets. A node counts as
// covered in an outcome when some payload that visited it ended accepted (resp. rejected).
//
// Some (node, outcome) pairs cannot happen, whatever the payload. The decoder selects a discriminated
// union's arm only by its literal tag, so an arm without a tag (or with a tag an earlier arm already has),
// and whatever only it leads to, is never visited: neither outcome can happen. A node that no value can
// satisfy (it needs a `never`, e.g. a constrained union's excluded variant) and whose failure reaches the
// root on every path (no untagged union on the way can absorb it) is only ever visited by rejected
// payloads. Those pairs are "impossible"; the figure reported, percent(), is the share of the other
// ("possible") pairs that were reached, and percent_all() the share of all tracked pairs. The analysis
// only ever proves a pair impossible (it over-approximates what can pass), and a pair that was reached
// counts as possible whatever the analysis said, so excluding pairs never hides a reachable one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decoder/decoder.hpp"
#include "run/coverage_file.hpp"
#include "schema/ir.hpp"

namespace crosscheck::campaign {

class SchemaCoverage {
 public:
  explicit SchemaCoverage(const schema::Ir& ir);

  /// A sink for one decode; call finish() with the payload's outcome afterwards.
  class Probe : public decoder::CoverageSink {
   public:
    void visit(const schema::Shape& node, bool matched) override;
    std::vector<std::uint32_t> nodes;
  };
  /// Marks the probe's nodes as exercised in an accepted or rejected payload; true if anything new.
  bool finish(const Probe& probe, bool accepted);

  std::size_t tracked() const { return tracked_count_; }
  std::size_t reached_accepted() const;
  std::size_t reached_rejected() const;
  /// Tracked nodes that some payload can visit in an accepted (a rejected) payload: tracked() minus the
  /// impossible pairs of that outcome (a reached pair always counts as possible).
  std::size_t possible_accepted() const;
  std::size_t possible_rejected() const;
  /// Percentage of the possible (node, outcome) pairs reached, 0..100: the figure to report.
  double percent() const;
  /// Percentage of all tracked (node, outcome) pairs reached, impossible ones included, 0..100.
  double percent_all() const;
  /// Sources of tracked nodes never exercised in an accepted (or a rejected) payload although one could.
  std::vector<std::string> never_accepted() const;
  std::vector<std::string> never_rejected() const;
  /// Sources of tracked nodes no payload ever visits, and of those only rejected payloads visit.
  std::vector<std::string> never_visited() const;
  std::vector<std::string> always_rejected() const;

  /// The counts behind percent() and percent_all(), as coverage.json and summary.json carry them.
  run::CoverageFigures figures() const;
  /// What coverage.json holds (run/coverage_file.hpp writes it).
  run::CoverageFile to_file() const;
  /// "100.0% of the 1,423 (node, outcome) pairs a payload can reach (98.7% of all 1,442; 19 cannot
  /// happen): 711/711 nodes reached in an accepted payload, 712/712 in a rejected one".
  std::string describe() const;
  /// Restores the flags of a saved coverage.json (same IR); ignores unknown ids.
  void restore(const run::CoverageFile& saved);

 private:
  std::vector<const schema::Shape*> by_id_;  // id -> node (null for untracked)
  std::vector<std::uint8_t> flags_;          // bit 0 accepted, bit 1 rejected
  std::vector<std::uint8_t> impossible_;     // the same bits: that outcome cannot happen
  std::size_t tracked_count_ = 0;
};

}  // namespace crosscheck::campaign
