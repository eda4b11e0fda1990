// rule_use.hpp: how often a run exercised each rule of the catalogue, and which of its findings break
// it (`crosscheck rules RUN_DIR`).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "catalogue/rule_catalogue.hpp"

namespace crosscheck::catalogue {

struct RuleUse {
  /// Times the run checked it: the reference host's rule coverage (rule-coverage.json) of its host
  /// rules, both ways. nullopt when the run has no count for it (no host rule, or no layer 3).
  std::optional<std::uint64_t> exercised;
  std::vector<std::string> findings;  ///< file names of the findings that break it
};

/// One entry per catalogue rule, in its order. Throws Fatal (exit 2) naming a file of the folder that
/// breaks its format.
std::vector<RuleUse> rule_use(const RuleCatalogue& catalogue, const std::filesystem::path& run_dir);

}  // namespace crosscheck::catalogue
