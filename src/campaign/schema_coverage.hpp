// schema_coverage.hpp: which outcome-deciding IR nodes a fuzz run has exercised, and how.
//
// Outcome-deciding nodes reachable from a root are the ones the decoder reports through CoverageSink: union
// arms and unions, enums, literals, and objects with required members or forbidden sets. A node counts as
// covered in an outcome when some payload that visited it ended accepted (resp. rejected); the figure printed
// is the share of (node, outcome) pairs reached, and the nodes never reached are listed by source pointer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decoder/decoder.hpp"
#include "json/value.hpp"
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
  /// Percentage of (node, outcome) pairs reached, 0..100.
  double percent() const;
  /// Sources of tracked nodes never exercised in an accepted (or a rejected) payload.
  std::vector<std::string> never_accepted() const;
  std::vector<std::string> never_rejected() const;

  json::Value to_json() const;
  /// Restores flags saved by to_json() (same IR); ignores unknown ids.
  void merge_json(const json::Value& saved);

 private:
  std::vector<const schema::Shape*> by_id_;  // id -> node (null for untracked)
  std::vector<std::uint8_t> flags_;          // bit 0 accepted, bit 1 rejected
  std::size_t tracked_count_ = 0;
};

}  // namespace crosscheck::campaign
