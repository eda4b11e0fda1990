// rule_use.cpp: a run folder's use of the catalogue's rules.
#include "catalogue/rule_use.hpp"

#include <algorithm>
#include <map>

#include "coverage/rule_coverage_file.hpp"
#include "run/finding_files.hpp"
#include "run/layout.hpp"
#include "util/result.hpp"

namespace crosscheck::catalogue {

std::vector<RuleUse> rule_use(const RuleCatalogue& catalogue, const std::filesystem::path& run_dir) {
  std::vector<RuleUse> use(catalogue.rules.size());
  std::filesystem::path coverage_path = run_dir / run::kRuleCoverageFile;
  if (std::filesystem::exists(coverage_path)) {
    std::map<std::string, std::uint64_t> checked;
    for (const auto& line : scenario_gen::read_rule_coverage(coverage_path.string()).rules)
      checked[line.rule] = line.accepted + line.rejected;
    for (std::size_t i = 0; i < catalogue.rules.size(); ++i) {
      const auto& host_rules = catalogue.rules[i].host_rules;
      if (host_rules.empty()) continue;
      std::uint64_t n = 0;
      for (const auto& h : host_rules)
        if (auto it = checked.find(h); it != checked.end()) n += it->second;
      use[i].exercised = n;
    }
  }
  for (const auto& files : run::list_finding_files(run::findings_dir_of(run_dir))) {
    auto finding = run::FindingStore::load(files.path);
    if (!finding.ok()) throw Fatal(finding.error());
    for (const auto& id : rules_broken_by(catalogue, finding.value())) {
      auto at = std::find_if(catalogue.rules.begin(), catalogue.rules.end(),
                             [&](const CatalogueRule& r) { return r.id == id; });
      use[static_cast<std::size_t>(at - catalogue.rules.begin())].findings.push_back(files.name);
    }
  }
  return use;
}

}  // namespace crosscheck::catalogue
