// broken_rules.hpp: the rules of the shipped rule catalogue (contract/rule-catalogue.json, docs/rules.md)
// a finding breaks, as (id, paraphrase) pairs, for the commands that name them to people outside
// crosscheck: repro (a reproducer's header), report --issues (a draft), fixtures seed (requirements).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "run/finding_file.hpp"

namespace crosscheck::cli {

using RuleNames = std::vector<std::pair<std::string, std::string>>;

/// catalogue::rules_broken_by on the checkout's catalogue, with each rule's paraphrase. A checkout
/// without the file names no rules; a catalogue that breaks its schema is Fatal (exit 2).
std::function<RuleNames(const run::Finding&)> shipped_broken_rules();

}  // namespace crosscheck::cli
