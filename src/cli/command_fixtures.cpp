// command_fixtures.cpp: `crosscheck fixtures run DIR`, a fixtures folder in the AHP repository's
// layout (manifest.json; docs/fixtures.md) through every implementation at both layers, printed as
// cases x implementations; `crosscheck fixtures seed`, such a folder from layer-2 findings.
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

#include "baseline/known_cases.hpp"
#include "baseline/run_findings.hpp"
#include "cli/adapter_options.hpp"
#include "cli/broken_rules.hpp"
#include "cli/command.hpp"
#include "cli/result_table.hpp"
#include "cli/schema_option.hpp"
#include "fixtures/fixture_run.hpp"
#include "fixtures/fixture_seed.hpp"
#include "fixtures/fixture_session.hpp"
#include "fixtures/manifest.hpp"
#include "json/schema_validator.hpp"
#include "report/escape.hpp"
#include "run/json_file.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {
namespace fs = std::filesystem;

struct FixturesOptions {
  AdapterOptions adapters;
  std::string dir, known, json_out, snapshot;
  bool verbose = false;
};

int fixtures_run(const FixturesOptions& o) {
  auto manifest = fixtures::load_manifest(o.dir);
  auto files = fixtures::read_files(manifest);
  baseline::KnownCases known(baseline::load_known_cases(o.known));
  auto snapshot = fixtures::choose_snapshot(manifest, o.snapshot, o.adapters.schema, load_ir_or_fail);
  auto probes = fixtures::plan(manifest, files, snapshot);
  auto set = o.adapters.start();
  fixtures::Answers answers = fixtures::ask(*set, probes);
  auto result = fixtures::judge(manifest, files, snapshot, probes, answers, known);

  const auto& names = answers.implementations;
  std::size_t messages = 0;
  for (const auto& f : files) messages += f.messages.size();
  std::cout << "fixtures " << manifest.manifest_path.string() << ": " << manifest.cases.size() << " cases ("
            << messages << " messages) x " << names.size() << " implementations\n"
            << "schema snapshot: " << snapshot.ir->source_path << " (" << snapshot.origin << ")\n";
  auto identities = set->identities();
  for (const auto& id : identities) {
    if (!id.has_layer(core::kCanonicalLayer))
      std::cout << id.name
                << ": no canonical layer: left out of the canonical checks (its cells say unsup)\n";
  }
  ResultTable table(names);
  std::vector<std::string> reasons;
  std::vector<std::map<std::string, std::size_t>> counts(names.size());
  const std::size_t n = names.size();
  std::vector<std::map<std::string, std::size_t>> skews(n);  // detail -> checks
  std::size_t contextual = 0;
  for (const auto& cr : result.cases) {
    const auto& c = manifest.cases[cr.case_index];
    if (c.contextual_expected_valid) ++contextual;
    std::vector<std::string> cells;
    bool any_fail = false;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& cell = cr.cells[i];
      std::string label = cell.label();
      cells.push_back(label);
      ++counts[i][label];
      any_fail = any_fail || cell.failing();
      for (const auto& ch : cell.checks) {
        if (ch.state == fixtures::CheckState::kSkew) ++skews[i][ch.detail];
      }
      if (label == "STALE") {
        reasons.push_back(c.id + " [" + names[i] + "]: passes, but the known-failure list says it fails (" +
                          cell.known->entries + "); remove it there");
      } else if (label == "FAIL" || (label == "known" && o.verbose)) {
        for (const auto& ch : cell.checks) {
          if (ch.state != fixtures::CheckState::kFail) continue;
          reasons.push_back(c.id + " [" + names[i] + "]: " + (label == "known" ? "known: " : "") +
                            fixtures::check_name(ch.kind) +
                            (ch.document.empty() ? "" : " (" + ch.document + ")") + ": " + ch.detail +
                            (label == "known" ? " (" + cell.known->entries + ")" : ""));
        }
      }
    }
    table.add_row(report::display_line(c.id), std::move(cells), any_fail ? "FAIL" : "ok");
  }
  reasons.insert(reasons.end(), result.stale_patterns.begin(), result.stale_patterns.end());
  for (const auto& u : result.unknown_ids)
    std::cerr << "WARNING: " << u << ", which " << manifest.manifest_path.string() << " does not have\n";
  table.print(std::cout);
  // Case ids, paths and SDK messages come from the folder and the adapters: shown, never interpreted.
  for (const auto& r : reasons) std::cout << "  " << report::display_line(r) << "\n";
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& [detail, k] : skews[i])
      std::cout << "skew: " << names[i] << ": not compared in " << k << (k == 1 ? " check" : " checks")
                << " (" << detail << ")\n";
  }
  std::size_t total_pass = 0, total_fail = 0;
  for (std::size_t i = 0; i < n; ++i) {
    auto& m = counts[i];
    std::cout << names[i] << ": " << m["pass"] << " passed, " << m["FAIL"] << " failed";
    if (m["known"]) std::cout << ", " << m["known"] << " known";
    if (m["STALE"]) std::cout << ", " << m["STALE"] << " stale";
    if (m["skew"]) std::cout << ", " << m["skew"] << " skew";
    if (m["unsup"]) std::cout << ", " << m["unsup"] << " unsupported";
    std::cout << "\n";
    total_pass += m["pass"];
    total_fail += m["FAIL"] + m["STALE"];
  }
  if (contextual)
    std::cout << contextual
              << " cases carry contextualExpectedValid (layer 3, contextual admission): not checked by "
                 "fixtures run\n";
  std::cout << "fixtures: " << total_pass << " passed, " << total_fail << " failed";
  if (!result.stale_patterns.empty())
    std::cout << ", " << result.stale_patterns.size() << " stale known-failure patterns";
  std::cout << "\n";
  if (!o.json_out.empty()) {
    json::Value doc = fixtures::result_to_json(manifest, snapshot, answers, result);
    if (auto bad = json::shipped_schema("fixtures-result.schema.json").validate(doc))
      throw Fatal("internal: the result for " + o.json_out +
                  " does not fit schemas/fixtures-result.schema.json at " + bad->pointer + ": " +
                  bad->message);
    run::write_json_file(o.json_out, doc, 2);
  }
  return result.exit_code();
}

struct SeedOptions {
  std::string findings, out;
  bool merge = false, force = false;
};

int fixtures_seed(const SeedOptions& o) {
  auto run = baseline::load_run_folder(o.findings);
  std::error_code ec;
  const bool exists = fs::exists(o.out, ec);
  std::optional<fixtures::Manifest> merged;
  if (o.merge && exists) {
    merged = fixtures::load_manifest(o.out);
    fixtures::read_files(*merged);  // every file as its manifest says, before anything is added
  } else if (exists && !o.force) {
    throw Fatal("--out " + o.out +
                ": exists: expected a folder that does not exist yet (--merge adds to its "
                "manifest, --force replaces it)");
  }
  auto rules = shipped_broken_rules();
  auto seeded =
      fixtures::seed_fixtures(run.findings, merged ? &merged->cases : nullptr, [&](const run::Finding& f) {
        std::vector<std::string> ids;
        for (const auto& [id, text] : rules(f)) ids.push_back(id);
        return ids;
      });
  if (!seeded.ok()) throw Fatal("--merge " + o.out + ": " + seeded.error());
  if (seeded->cases.empty())
    throw Fatal("--findings " + o.findings +
                ": no layer-2 finding with a canonical verdict of the reference: "
                "nothing to seed (a manifest needs at least one case)");
  for (const auto& [path, bytes] : seeded->files) {
    fs::create_directories((fs::path(o.out) / path).parent_path(), ec);
    run::write_file_atomically((fs::path(o.out) / path).string(), bytes);
  }
  const std::string status =
      merged && !merged->status.empty()
          ? merged->status
          : "Fixtures seeded by crosscheck fixtures seed from layer-2 findings: expectedValid "
            "is the C++ reference's canonical verdict";
  const std::string snapshot =
      merged && !merged->snapshot_version.empty() ? merged->snapshot_version : fixtures::kSeedSnapshot;
  run::write_file_atomically((fs::path(o.out) / "manifest.json").string(),
                             fixtures::manifest_text(status, snapshot, seeded->cases));
  fixtures::read_files(fixtures::load_manifest(o.out));  // what was written reads back as written
  std::size_t skipped = 0;
  for (const auto& [why, n] : seeded->skipped) skipped += n;
  std::cout << o.out << "/manifest.json: " << seeded->added << " cases added"
            << (merged ? " to the " + std::to_string(merged->cases.size()) + " it had" : std::string())
            << ", " << seeded->already << " findings whose case was already there, " << skipped
            << " findings not seeded";
  const char* sep = " (";
  for (const auto& [why, n] : seeded->skipped) {
    std::cout << sep << why << ": " << n;
    sep = "; ";
  }
  std::cout << (skipped ? ")" : "") << "\n";
  return kExitClean;
}

const Registration kFixtures{CommandSpec{
    "fixtures",
    "Upstream fixture folders (manifest.json): 'fixtures run DIR' checks every implementation at both layers",
    "  crosscheck fixtures run path/to/agent-hooks-protocol/fixtures/draft\n"
    "  crosscheck fixtures run --adapters cpp,python,rust --json fixtures.json "
    "tests/data/fixtures/upstream-layout/fixtures/draft\n"
    "  crosscheck fixtures run --baseline tests/data/baseline/known.json path/to/fixtures/draft\n"
    "  crosscheck fixtures seed --findings nightly/ --out seeded/fixtures/draft [--merge]\n"
    "Exit status: 0 every case as expected (or known), 1 a case fails or a known-failure entry is stale,\n"
    "2 usage or input (manifest missing or malformed, a file missing or with another sha256), 3 adapter.\n",
    [](CLI::App& sub) {
      sub.require_subcommand(1);
      CLI::App* runner = sub.add_subcommand(
          "run", "Run a fixtures folder through the implementations; exit 1 if any case fails");
      auto o = std::make_shared<FixturesOptions>();
      o->adapters.add_to(*runner);
      runner->add_option("--baseline,--known", o->known,
                         "Known failures: a baseline's entries with 'cases' naming fixture case ids "
                         "(docs/baseline.md); an entry for a passing case fails the run");
      runner->add_option("--json", o->json_out,
                         "Also write the result as JSON (schemas/fixtures-result.schema.json)");
      runner->add_option("--snapshot", o->snapshot,
                         "The schema source the fixtures were written for (default: the checkout's "
                         "schema folder the cases name, else --schema)");
      runner->add_flag("--verbose", o->verbose, "Also list why known cells fail");
      runner->add_option("dir", o->dir, "Fixtures folder holding manifest.json")->required();
      CLI::App* seeder = sub.add_subcommand(
          "seed", "Write layer-2 findings as fixture files and a manifest in the upstream layout");
      auto so = std::make_shared<SeedOptions>();
      seeder->add_option("--findings", so->findings, "Run folder (or its findings folder)")->required();
      seeder
          ->add_option("--out", so->out, "The fixtures folder to write (manifest.json, http/, registration/)")
          ->required();
      seeder->add_flag("--merge", so->merge, "Add to the manifest of an existing --out folder");
      seeder->add_flag("--force", so->force, "Write into an existing --out folder, replacing its manifest");
      return [o, so, runner]() { return runner->parsed() ? fixtures_run(*o) : fixtures_seed(*so); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
