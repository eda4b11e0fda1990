// rule_catalogue.hpp: the rule catalogue (contract/rule-catalogue.json, its schema
// schemas/rule-catalogue.schema.json, docs/rules.md): every testable rule of the AHP contract
// crosscheck knows, with a stable id, its layer, a paraphrase and where crosscheck checks it. Its one
// reader, and the one place that says which rules a finding breaks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "run/finding_file.hpp"

namespace crosscheck::catalogue {

struct CatalogueRule {
  std::string id;      ///< stable: "host.merge-shallow", "codec.unknown-member.preserve"
  std::string layer;   ///< structural | canonical | contextual | facade
  std::string text;    ///< the paraphrase ("rule" in the file)
  std::string status;  ///< checked | partial | unchecked | unreachable | implementation-defined
  std::string why;     ///< why it is not simply checked ("" when checked)
  std::vector<std::string> families, classes, host_rules, cases, tests;
};

struct RuleCatalogue {
  std::string path;
  std::vector<CatalogueRule> rules;  ///< in the file's order
  const CatalogueRule* find(std::string_view id) const;
};

/// The catalogue shipped in a checkout: ROOT/contract/rule-catalogue.json.
std::string shipped_catalogue_path(const std::string& repository_root);

/// Reads the catalogue, checked against its schema and for unique ids. Throws Fatal (exit 2) naming
/// the file, the field and what was expected.
RuleCatalogue read_rule_catalogue(const std::string& path);

/// The family and host rule a finding came from: layers 1-2 from the generator's family in `source`
/// ("unknown-member: ..."), layer 3 from the generated row's tags (family:NAME, rule:NAME). Empty
/// members when the finding was not generated (corpus files, hand-written rows).
struct FindingOrigin {
  std::string family;
  std::string host_rule;
};
FindingOrigin origin_of(const run::Finding& finding);

/// The ids of the rules a finding breaks: those that name its family or its host rule, and, where a
/// rule lists classes, one of the finding's divergence classes. Empty when nothing ties it to a rule.
std::vector<std::string> rules_broken_by(const RuleCatalogue& catalogue, const run::Finding& finding);

}  // namespace crosscheck::catalogue
