// rule_coverage_file.hpp: rule coverage of the reference host, as a table for a person and as the
// file rule-coverage.json (schemas/rule-coverage.schema.json), its one writer and one reader.
//
// Every rule of host::rules() has two ways: accepted (a rejecting rule checked on its subject and
// held; a composition rule's construct composed) and rejected (the rule named; a construct in a
// response rejected by another rule). A way that generated scenarios cannot reach is listed with why
// (impossible_ways()), and the percentage counts the possible ways only.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "json/value.hpp"
#include "layers/contextual/host/rule_coverage.hpp"

namespace crosscheck::scenario_gen {

/// A way no generated scenario can exercise, and why.
struct ImpossibleWay {
  std::string rule;
  bool accepted = false;  ///< which way: accepted (true) or rejected (false)
  std::string why;
};
const std::vector<ImpossibleWay>& impossible_ways();

struct RuleLine {
  std::string rule;
  bool rejects = true;
  std::uint64_t accepted = 0, rejected = 0;
  bool accepted_possible = true, rejected_possible = true;
};

struct RuleCoverageSummary {
  std::uint64_t rows = 0;
  std::vector<RuleLine> rules;  ///< in the order of host::rules()
  std::size_t possible = 0, reached = 0;
  double percent() const {
    return possible ? 100.0 * static_cast<double>(reached) / static_cast<double>(possible) : 100.0;
  }
  /// "rule accepted" / "rule rejected" for each possible way not reached.
  std::vector<std::string> missing() const;
};

RuleCoverageSummary summarize(const host::RuleCoverage& coverage, std::uint64_t rows);

/// `a` and `b` joined, way by way: the sum of the counts (sessions of one run, shards), or with
/// `take_max` the larger count (a folder merged again must not count its rows twice). Rules are the
/// current host::rules(); a rule only one side knows keeps that side's counts.
RuleCoverageSummary join_rule_coverage(const RuleCoverageSummary& a, const RuleCoverageSummary& b,
                                       bool take_max = false);

/// The table: one line per rule with both counts, "-" for an impossible way, then the percentage and
/// what is missing.
void print_rule_coverage(std::ostream& out, const RuleCoverageSummary& summary);

json::Value rule_coverage_json(const RuleCoverageSummary& summary);
/// Writes rule_coverage_json atomically. Throws Fatal naming the file.
void write_rule_coverage(const std::string& path, const RuleCoverageSummary& summary);
/// Reads a file written by write_rule_coverage, checked against its schema. Throws Fatal naming the
/// file, the field and what was expected.
RuleCoverageSummary read_rule_coverage(const std::string& path);

}  // namespace crosscheck::scenario_gen
