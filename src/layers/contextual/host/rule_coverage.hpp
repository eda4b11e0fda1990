// rule_coverage.hpp: which rules of the reference host a set of applications exercised, and how
// (docs/host.md, "Rule coverage"). The caller owns the object and passes it to host::apply, so a
// campaign keeps one per worker and merges them; the host keeps no state of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace crosscheck::host {

/// How often one rule was exercised each way.
struct RuleTally {
  /// A rejecting rule was checked on its subject and held (the response went on); a composition rule's
  /// construct was composed in an accepted response.
  std::uint64_t accepted = 0;
  /// A rejecting rule rejected the response (it is the rule named); a composition rule's construct
  /// stood in a response rejected by another rule, so nothing of it was published.
  std::uint64_t rejected = 0;
};

class RuleCoverage {
 public:
  void accepted(std::string_view rule) { tally(rule).accepted++; }
  void rejected(std::string_view rule) { tally(rule).rejected++; }
  void merge(const RuleCoverage& other);
  /// nullptr when the rule was never exercised.
  const RuleTally* find(std::string_view rule) const;
  /// Every rule exercised at least once, by name.
  const std::map<std::string, RuleTally, std::less<>>& tallies() const { return tallies_; }

 private:
  RuleTally& tally(std::string_view rule);
  std::map<std::string, RuleTally, std::less<>> tallies_;
};

}  // namespace crosscheck::host
