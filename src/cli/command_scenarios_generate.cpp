// command_scenarios_generate.cpp: `crosscheck scenarios generate`, generated layer-3 scenario rows
// with the reference host's answers (src/layers/contextual/generate), written through the one scenario-file
// writer, and the rule coverage they reach.
#include "cli/command_scenarios_generate.hpp"

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "cli/schema_option.hpp"
#include "coverage/rule_coverage_file.hpp"
#include "layers/contextual/generate/scenario_generator.hpp"
#include "layers/contextual/host/rule_coverage.hpp"
#include "layers/contextual/rows/scenario_file.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

struct GenerateOptions {
  std::uint64_t seed = 1;
  std::size_t count = 40;
  std::string families;
  std::string out;
  std::string coverage;
  std::string schema;
};

std::vector<const scenario_gen::Family*> chosen_families(const std::string& text) {
  std::vector<const scenario_gen::Family*> out;
  if (text.empty()) {
    for (const auto& f : scenario_gen::families()) out.push_back(&f);
    return out;
  }
  std::stringstream in(text);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name.empty()) continue;
    const scenario_gen::Family* f = scenario_gen::find_family(name);
    if (!f) {
      std::string known;
      for (const auto& g : scenario_gen::families()) known += (known.empty() ? "" : ", ") + g.name;
      throw Fatal("--families: no family named '" + name + "'; known: " + known);
    }
    out.push_back(f);
  }
  if (out.empty()) throw Fatal("--families: expected at least one family name");
  return out;
}

int generate(const GenerateOptions& o) {
  std::vector<const scenario_gen::Family*> families = chosen_families(o.families);
  if (o.count == 0) throw Fatal("--count: expected a positive number of rows");
  schema::Ir ir = load_ir_or_fail(o.schema);
  auto validator = canonical::CanonicalValidator::from_ir(ir);
  if (!validator.ok()) throw Fatal(validator.error().text());
  for (const char* document : {"intercept-request", "intercept-response"})
    if (!validator->knows(document)) throw Fatal(std::string("the schema has no ") + document + " document");

  scenario_gen::ScenarioGenerator generator(validator.value());
  host::RuleCoverage coverage;
  std::vector<scenario_gen::GeneratedRow> rows =
      generator.generate_many(o.seed, o.count, families, &coverage);
  // Through the one reader (the format's schema and its row checks) and the one writer.
  auto parsed = scenario::parse_scenario_text(scenario_gen::scenario_file_text(rows), o.out);
  if (!parsed.ok())
    throw Fatal("internal: a generated row breaks the scenario format: " + parsed.error().text(), kExitUsage);
  std::vector<const scenario::Row*> pointers;
  for (const auto& r : parsed.value().rows) pointers.push_back(&r);
  scenario::write_scenario_file(o.out, pointers);

  std::size_t missed = 0;
  for (const auto& r : rows) missed += !r.claim_held;
  std::cout << "wrote " << rows.size() << " rows (seed " << o.seed << ", " << families.size()
            << " families) to " << o.out << "\n";
  if (missed) {
    std::cout << missed
              << " rows where the family's claim did not hold (tagged with what the reference said):";
    for (const auto& r : rows)
      if (!r.claim_held) std::cout << " " << r.id;
    std::cout << "\n";
  }
  scenario_gen::RuleCoverageSummary summary = scenario_gen::summarize(coverage, rows.size());
  scenario_gen::print_rule_coverage(std::cout, summary);
  if (!o.coverage.empty()) {
    scenario_gen::write_rule_coverage(o.coverage, summary);
    std::cout << "rule coverage: " << o.coverage << "\n";
  }
  return kExitClean;
}

}  // namespace

ScenariosVerb add_scenarios_generate(CLI::App& scenarios) {
  auto o = std::make_shared<GenerateOptions>();
  CLI::App* cmd = scenarios.add_subcommand(
      "generate",
      "Generate scenario rows (valid effects and mutation families) with the reference host's answers");
  cmd->add_option("--seed", o->seed, "Seed (the same seed, count and families give the same file)");
  cmd->add_option("--count", o->count, "Rows to generate (default 40); the families take turns");
  cmd->add_option("--families", o->families,
                  "Families, comma-separated (default: all; docs/scenario-generator.md)");
  cmd->add_option("--out", o->out, "The scenario file to write (schemas/scenario-file.schema.json)")
      ->required();
  cmd->add_option("--coverage", o->coverage,
                  "Also write the rule coverage here (schemas/rule-coverage.schema.json)");
  cmd->add_option("--schema", o->schema, "Schema snapshot (default: set-up's bundle)");
  return {cmd, [o] { return generate(*o); }};
}

}  // namespace crosscheck::cli
