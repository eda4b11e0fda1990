// command_scenarios_seed.cpp: `crosscheck scenarios seed --findings DIR --out FILE [--merge EXISTING]`,
// scenario rows from layer-3 findings with the reference host's expectations (src/layers/contextual/seed),
// written through the one scenario-file writer, and the rows an SDK disagrees on listed for review.
#include "cli/command_scenarios_seed.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "baseline/run_findings.hpp"
#include "canonical/canonical_validator.hpp"
#include "cli/schema_option.hpp"
#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "layers/contextual/rows/scenario_file.hpp"
#include "layers/contextual/seed/rows_from_findings.hpp"
#include "run/json_file.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

namespace fs = std::filesystem;

struct SeedOptions {
  std::string findings, out, merge, schema;
  bool force = false;
};

/// seeds.json -> seeds.review.json
std::string review_path(const std::string& out) {
  std::string stem = out.size() > 5 && out.ends_with(".json") ? out.substr(0, out.size() - 5) : out;
  return stem + ".review.json";
}

/// An earlier output of this command: a scenario file whose every row is tagged seeded.
bool earlier_seed_output(const std::string& path) {
  auto file = scenario::read_scenario_file(path);
  if (!file.ok()) return false;
  for (const auto& r : file.value().rows) {
    auto tags = r.tags();
    if (std::find(tags.begin(), tags.end(), "seeded") == tags.end()) return false;
  }
  return true;
}

int seed(const SeedOptions& o) {
  std::error_code ec;
  if (!fs::is_directory(o.findings, ec)) throw Fatal("--findings " + o.findings + ": no such folder");
  std::optional<scenario::ScenarioFile> merge;
  if (!o.merge.empty()) {
    auto file = scenario::read_scenario_file(o.merge);
    if (!file.ok()) throw Fatal("--merge " + file.error().text());
    merge = std::move(file.value());
  }
  if (fs::exists(o.out, ec) && !(merge && fs::equivalent(o.out, o.merge, ec)) && !o.force &&
      !earlier_seed_output(o.out))
    throw Fatal(o.out + " exists and is not an earlier scenarios seed output: add to it with --merge " +
                o.out + ", or replace it with --force");
  auto run = baseline::load_run_folder(o.findings);
  schema::Ir ir = load_ir_or_fail(o.schema);
  auto validator = canonical::CanonicalValidator::from_ir(ir);
  if (!validator.ok()) throw Fatal(validator.error().text());
  for (const char* document : {"intercept-request", "intercept-response"})
    if (!validator->knows(document)) throw Fatal(std::string("the schema has no ") + document + " document");

  auto result =
      scenario_seed::seed_scenarios(validator.value(), run.findings, merge ? &*merge : nullptr, o.out);
  // The review list through its schema before anything is written.
  auto review = json::parse(result.review_text);
  if (!review.ok()) throw Fatal("internal: the review list is not JSON; nothing written");
  if (auto bad = json::shipped_schema("scenario-review.schema.json").validate(review.value()))
    throw Fatal("internal: the review list breaks schemas/scenario-review.schema.json at " + bad->pointer +
                ": " + bad->message + "; nothing written");
  const std::string review_file = review_path(o.out);
  run::write_file_atomically(o.out, result.scenario_text);
  run::write_file_atomically(review_file, result.review_text);

  for (const auto& s : result.review) {
    std::cout << "review " << s.id << ": the reference host says " << s.answer
              << (s.rule.empty() ? "" : " (" + s.rule + ")");
    for (const auto& d : s.disagreements) std::cout << "; " << d.implementation << " " << d.verdict;
    std::cout << " (" << s.finding << ")\n";
  }
  std::size_t skipped = 0;
  for (const auto& [why, n] : result.skipped) skipped += n;
  std::cout << o.out << ": " << result.added.size() << " rows added"
            << (merge ? " to the " + std::to_string(result.merged) + " of " + o.merge : std::string()) << ", "
            << result.duplicates << " duplicate rows left out, " << skipped << " findings not seeded";
  const char* sep = " (";
  for (const auto& [why, n] : result.skipped) {
    std::cout << sep << why << ": " << n;
    sep = "; ";
  }
  std::cout << (skipped ? ")" : "") << "\n"
            << review_file << ": " << result.review.size()
            << " rows on which an SDK disagrees with the reference host, for a person to confirm\n";
  return kExitClean;
}

}  // namespace

ScenariosVerb add_scenarios_seed(CLI::App& scenarios) {
  auto o = std::make_shared<SeedOptions>();
  CLI::App* cmd = scenarios.add_subcommand(
      "seed", "Scenario rows from layer-3 findings, with the reference host's expectations");
  cmd->add_option("--findings", o->findings, "A scenarios run folder or its findings folder")->required();
  cmd->add_option(
         "--out", o->out,
         "The scenario file to write (schemas/scenario-file.schema.json), and OUT.review.json beside it")
      ->required();
  cmd->add_option(
      "--merge", o->merge,
      "A scenario file whose rows are kept byte for byte first; rows it already has are left out");
  cmd->add_option("--schema", o->schema, "Schema snapshot for the reference host (default: set-up's bundle)");
  cmd->add_flag("--force", o->force, "Replace OUT even when it is not an earlier seed output");
  return {cmd, [o] { return seed(*o); }};
}

}  // namespace crosscheck::cli
