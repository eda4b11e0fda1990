// command_rules.cpp: `crosscheck rules [RUN_DIR]`, the rule catalogue (src/catalogue, docs/rules.md):
// every rule with its layer, status and checks, and for a run folder how often each was exercised and
// which findings break it.
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "catalogue/rule_catalogue.hpp"
#include "catalogue/rule_use.hpp"
#include "cli/command.hpp"
#include "exec/adapter_config.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

struct RulesOptions {
  std::string run_dir;
  std::string catalogue;
  std::string layer;
};

std::string checks_of(const catalogue::CatalogueRule& r) {
  std::string out;
  auto add = [&](const char* what, const std::vector<std::string>& names) {
    if (names.empty()) return;
    out += (out.empty() ? "" : "; ") + std::string(what);
    for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : " ") + names[i];
  };
  add("families", r.families);
  add("host rules", r.host_rules);
  add("classes", r.classes);
  add("cases", r.cases);
  add("tests", r.tests);
  return out.empty() ? "-" : out;
}

int show(const RulesOptions& o) {
  auto c = catalogue::read_rule_catalogue(
      o.catalogue.empty() ? catalogue::shipped_catalogue_path(exec::repository_root()) : o.catalogue);
  if (!o.layer.empty() &&
      std::none_of(c.rules.begin(), c.rules.end(), [&](const auto& r) { return r.layer == o.layer; }))
    throw Fatal("--layer '" + o.layer +
                "': expected a layer the catalogue names (structural, canonical, contextual, facade)");
  std::vector<catalogue::RuleUse> use;
  if (!o.run_dir.empty()) use = catalogue::rule_use(c, o.run_dir);
  std::map<std::string, std::size_t> by_status;
  std::size_t width = 0;
  for (const auto& r : c.rules) width = std::max(width, r.id.size());
  for (std::size_t i = 0; i < c.rules.size(); ++i) {
    const auto& r = c.rules[i];
    if (!o.layer.empty() && r.layer != o.layer) continue;
    ++by_status[r.status];
    std::cout << std::left << std::setw(static_cast<int>(width) + 2) << r.id << std::setw(12) << r.layer
              << std::setw(24) << r.status;
    if (!use.empty()) {
      std::cout << "exercised " << std::setw(8)
                << (use[i].exercised ? std::to_string(*use[i].exercised) : std::string("-"));
      std::cout << "findings " << std::setw(5) << use[i].findings.size();
    }
    std::cout << checks_of(r) << "\n";
    for (const auto& f : use.empty() ? std::vector<std::string>{} : use[i].findings)
      std::cout << "    broken by " << f << "\n";
  }
  std::size_t total = 0;
  for (const auto& [status, n] : by_status) total += n;
  std::cout << total << " rules:";
  const char* sep = " ";
  for (const auto& [status, n] : by_status) {
    std::cout << sep << n << " " << status;
    sep = ", ";
  }
  std::cout << " (" << c.path << ")\n";
  for (const auto& r : c.rules)
    if ((o.layer.empty() || r.layer == o.layer) && r.status != "checked")
      std::cout << "  " << r.id << " (" << r.status << "): " << r.why << "\n";
  return 0;
}

const Registration kRules{
    CommandSpec{"rules",
                "List the contract's rules (the rule catalogue) with where each is checked; for a run "
                "folder, how often each was exercised and which findings break it",
                "  crosscheck rules\n"
                "  crosscheck rules --layer contextual crosscheck-out\n"
                "  crosscheck rules --catalogue my-rules.json nightly/run",
                [](CLI::App& sub) {
                  auto o = std::make_shared<RulesOptions>();
                  sub.add_option("--catalogue", o->catalogue,
                                 "The catalogue (default: contract/rule-catalogue.json of the checkout)");
                  sub.add_option("--layer", o->layer, "Only the rules of this layer");
                  sub.add_option("run_dir", o->run_dir, "A run folder: rule coverage and findings per rule");
                  return [o] { return show(*o); };
                }}};

}  // namespace
}  // namespace crosscheck::cli
