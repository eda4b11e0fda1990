// command_replay.cpp: `crosscheck replay FINDING`, re-run one finding on the configured adapters and
// say whether it still reproduces, in the same bucket. A layer-3 finding (one scenario row, with
// "scenario") is run again on the clients it names (or their servers, for request admission) and the
// reference host, through the same verdicts as `scenarios run`.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/result_table.hpp"
#include "cli/schema_option.hpp"
#include "interop/client_choice.hpp"
#include "interop/server_admission.hpp"
#include "layers/contextual/compare/finding_writer.hpp"
#include "layers/contextual/compare/reference_result.hpp"
#include "run/finding_file.hpp"
#include "util/result.hpp"
#include "util/running_executable.hpp"

namespace crosscheck::cli {
namespace {

namespace fs = std::filesystem;

struct ScenarioOptions {
  std::string client_config;  ///< --client-config (default: the finding's, else adapters/clients.json)
  std::string out;            ///< --out: the work folder (default: a fresh one under the temp folder)
};

/// Prints which buckets came back and returns the exit code: 1 when one of them did.
int judge(const std::string& path, const std::vector<core::Divergence>& before_list,
          const std::vector<core::Divergence>& now) {
  std::set<std::string> before, after;
  for (const auto& d : before_list) before.insert(d.bucket);
  for (const auto& d : now) after.insert(d.bucket);
  for (const auto& d : now) {
    std::cout << (before.count(d.bucket) ? "  same bucket " : "  NEW bucket  ") << d.bucket << " " << d.layer
              << " " << core::class_name(d.cls) << ": " << d.detail << "\n";
  }
  std::size_t kept = 0;
  for (const auto& b : before) {
    if (after.count(b)) {
      ++kept;
    } else {
      std::cout << "  gone         " << b << "\n";
    }
  }
  if (kept == before.size() && !before.empty()) {
    std::cout << "REPRODUCES: all " << kept << " bucket(s) of " << path << "\n";
  } else if (kept > 0) {
    std::cout << "PARTLY REPRODUCES: " << kept << " of " << before.size() << " bucket(s)\n";
  } else {
    std::cout << "DOES NOT REPRODUCE: none of the " << before.size() << " bucket(s) of " << path
              << " was seen\n";
  }
  return kept > 0 ? kExitDivergence : kExitClean;
}

std::string work_folder(const ScenarioOptions& o) {
  if (!o.out.empty()) {
    fs::create_directories(o.out);
    return o.out;
  }
  std::string pattern = (fs::temp_directory_path() / "crosscheck-replay-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw Fatal("cannot create a work folder under " + pattern);
  return pattern;
}

// Layer 3: the finding's row, as a one-row scenario file, on its clients (or servers) and the reference.
int replay_scenario(const AdapterOptions& adapters, const ScenarioOptions& o, const std::string& path,
                    const run::Finding& f) {
  const run::ScenarioCase& c = *f.scenario;
  const std::string work = work_folder(o);
  const std::string row_file = (fs::path(work) / "row.json").string();
  {
    std::ofstream out(row_file, std::ios::binary);
    out << "{\"version\": 1, \"scenarios\": [" << f.input << "]}\n";
    if (!out) throw Fatal(row_file + ": cannot be written");
  }
  auto file = scenario::read_scenario_file(row_file);
  if (!file.ok()) throw Fatal(path + ": its row does not read back as a scenario: " + file.error().text());
  if (file.value().rows.size() != 1) throw Fatal(path + ": its input is not one scenario row");
  const scenario::Row& row = file.value().rows.front();
  schema::Ir ir = load_ir_or_fail(adapters.schema.empty() ? c.schema : adapters.schema);
  auto reference = canonical::CanonicalValidator::from_ir(ir);
  if (!reference.ok())
    throw Fatal("the schema does not load as canonical schemas: " + reference.error().text());
  const bool servers = c.mode == run::kScenarioServers;
  auto clients =
      scenario::pick_clients(o.client_config.empty() ? c.client_config : o.client_config, c.clients, servers);
  std::vector<std::string> names{core::kReferenceImplementation};
  for (const auto& x : clients) names.push_back(x.name);
  scenario::FindingContext context{c.file, c.clients, c.client_config, c.schema};
  ResultTable table(names);
  std::optional<run::Finding> now;
  std::cout << "work folder: " << work << "\n";
  if (servers) {
    scenario::AdmissionOptions options;
    options.work_dir = (fs::path(work) / "servers").string();
    scenario::Admission ref = scenario::reference_admission(reference.value(), row);
    std::vector<scenario::Admission> answers;
    answers.reserve(clients.size());
    for (const auto& x : clients) {
      scenario::AdmissionRunner runner(x, options);
      answers.push_back(runner.run({&row})[row.id]);
    }
    scenario::AdmissionResults results{{core::kReferenceImplementation, &ref}};
    std::vector<std::string> cells{ref.status};
    for (std::size_t i = 0; i < clients.size(); ++i) {
      results.emplace_back(clients[i].name, &answers[i]);
      cells.push_back(answers[i].status);
    }
    auto differences = scenario::compare_admission(row, results);
    table.add_row(row.id, cells, std::to_string(differences.size()) + " difference(s)");
    now = scenario::admission_finding(row, differences, results, context);
  } else {
    scenario::RunnerOptions options;
    options.work_dir = (fs::path(work) / "clients").string();
    options.crosscheck_exe = running_executable();
    scenario::RowResult ref = scenario::reference_result(reference.value(), row);
    std::vector<scenario::RowResult> answers;
    answers.reserve(clients.size());
    for (const auto& x : clients) {
      scenario::ClientRunner runner(x, options);
      answers.push_back(runner.run({&row})[row.id]);
    }
    scenario::ClientResults results{{core::kReferenceImplementation, &ref}};
    std::vector<std::string> cells{ref.status};
    for (std::size_t i = 0; i < clients.size(); ++i) {
      results.emplace_back(clients[i].name, &answers[i]);
      cells.push_back(answers[i].status);
    }
    auto differences = scenario::compare_row(row, results);
    table.add_row(row.id, cells, std::to_string(differences.size()) + " difference(s)");
    now = scenario::row_finding(row, differences, results, context);
  }
  table.print(std::cout);
  return judge(path, f.divergences, now ? now->divergences : std::vector<core::Divergence>{});
}

int replay(const AdapterOptions& adapters, const ScenarioOptions& scenario_options, const std::string& path) {
  auto loaded = run::FindingStore::load(path);
  if (!loaded.ok()) throw Fatal(loaded.error());
  const run::Finding& f = loaded.value();
  if (f.scenario) return replay_scenario(adapters, scenario_options, path, f);
  auto set = adapters.start();
  // A layer-2 finding is re-run at both layers (its bucket may be a layer-inconsistency).
  auto results = set->run({{f.root, f.input}}, run::finding_layers(f));
  const auto& now = results.front();
  ResultTable table(set->names());
  table.add_row(path, now);
  table.print(std::cout);
  return judge(path, f.divergences, now.divergences);
}

const Registration kReplay{CommandSpec{
    "replay", "Re-run one finding and say whether it still reproduces in the same bucket (exit 1 if it does)",
    "  crosscheck replay crosscheck-out/findings/diverge-0a1b2c.json\n"
    "  crosscheck replay --adapters cpp,python crosscheck-out/diverge-0a1b2c.json\n"
    "  crosscheck replay crosscheck-out/scenarios/findings/diverge-3c4d.json   # a scenario row, on its "
    "clients",
    [](CLI::App& sub) {
      auto adapters = std::make_shared<AdapterOptions>();
      auto scenario_options = std::make_shared<ScenarioOptions>();
      auto path = std::make_shared<std::string>();
      adapters->add_to(sub);
      sub.add_option("--client-config", scenario_options->client_config,
                     "A scenario finding: the client configuration (default: the run's, else "
                     "adapters/clients.json)");
      sub.add_option("--out", scenario_options->out,
                     "A scenario finding: the folder for the clients' batch files (default: a new one under "
                     "the temp folder)");
      sub.add_option("finding", *path, "A finding file written by run, fuzz or scenarios run")->required();
      return [adapters, scenario_options, path] { return replay(*adapters, *scenario_options, *path); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
