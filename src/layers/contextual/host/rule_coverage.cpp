// rule_coverage.cpp: the tallies of rule coverage (rule_coverage.hpp).
#include "layers/contextual/host/rule_coverage.hpp"

namespace crosscheck::host {

RuleTally& RuleCoverage::tally(std::string_view rule) {
  auto it = tallies_.find(rule);
  if (it == tallies_.end()) it = tallies_.emplace(std::string(rule), RuleTally{}).first;
  return it->second;
}

void RuleCoverage::merge(const RuleCoverage& other) {
  for (const auto& [rule, t] : other.tallies_) {
    RuleTally& mine = tally(rule);
    mine.accepted += t.accepted;
    mine.rejected += t.rejected;
  }
}

const RuleTally* RuleCoverage::find(std::string_view rule) const {
  auto it = tallies_.find(rule);
  return it == tallies_.end() ? nullptr : &it->second;
}

}  // namespace crosscheck::host
