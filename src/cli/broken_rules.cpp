// broken_rules.cpp: the shipped catalogue's rules a finding breaks.
#include "cli/broken_rules.hpp"

#include <filesystem>
#include <memory>

#include "catalogue/rule_catalogue.hpp"
#include "exec/adapter_config.hpp"

namespace crosscheck::cli {

std::function<RuleNames(const run::Finding&)> shipped_broken_rules() {
  const std::string path = catalogue::shipped_catalogue_path(exec::repository_root());
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return [](const run::Finding&) { return RuleNames{}; };
  auto c = std::make_shared<catalogue::RuleCatalogue>(catalogue::read_rule_catalogue(path));
  return [c](const run::Finding& finding) {
    RuleNames out;
    for (const auto& id : catalogue::rules_broken_by(*c, finding)) {
      const auto* rule = c->find(id);
      out.emplace_back(id, rule ? rule->text : "");
    }
    return out;
  };
}

}  // namespace crosscheck::cli
