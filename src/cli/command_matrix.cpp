// command_matrix.cpp: `crosscheck matrix run FILE`, a structural-acceptance matrix
// ({contract, cases: [{id, root, value, accepted, warning}]}) across every implementation, as a
// cases x implementations table of pass and fail (judged in src/matrix/matrix_run); `crosscheck
// matrix seed`, new cases from findings (src/matrix/seed_files).
#include <iostream>
#include <memory>
#include <string>

#include "baseline/known_cases.hpp"
#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/result_table.hpp"
#include "cli/schema_option.hpp"
#include "matrix/matrix_run.hpp"
#include "matrix/seed_files.hpp"

namespace crosscheck::cli {
namespace {

int matrix_run(const AdapterOptions& adapters, const std::string& path, const std::string& known_path,
               bool verbose) {
  auto cases = matrix::load_matrix(path).cases;
  baseline::KnownCases known(baseline::load_known_cases(known_path));
  auto set = adapters.start();
  std::vector<exec::DecodeRequest> batch;
  for (const auto& c : cases) batch.push_back({c.root, c.text});
  auto results = set->run(batch);
  auto names = set->names();
  std::vector<bool> reports_warnings;
  for (const auto& id : set->identities()) reports_warnings.push_back(id.reports_warnings);
  matrix::MatrixVerdict v = matrix::judge_matrix(cases, results, names, reports_warnings, known, verbose);
  ResultTable table(names);
  for (auto& row : v.rows) table.add_row(row.id, std::move(row.cells), row.failing ? "FAIL" : "pass");
  for (const auto& u : v.unknown_ids)
    std::cerr << "WARNING: " << u << ", which " << path << " does not have\n";
  std::cout << "matrix " << path << ": " << cases.size() << " cases x " << names.size()
            << " implementations\n";
  table.print(std::cout);
  for (const auto& r : v.reasons) std::cout << "  " << r << "\n";
  std::size_t total_pass = 0, total_fail = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const matrix::MatrixTally& t = v.tallies[i];
    std::cout << names[i] << ": " << t.passed << " passed, " << t.failed << " failed";
    if (t.known) std::cout << ", " << t.known << " known";
    if (t.stale) std::cout << ", " << t.stale << " stale";
    if (t.unsupported) std::cout << ", " << t.unsupported << " unsupported";
    std::cout << "\n";
    total_pass += t.passed;
    total_fail += t.failed + t.stale;
  }
  std::cout << "matrix: " << total_pass << " passed, " << total_fail << " failed";
  if (v.stale_globs) std::cout << ", " << v.stale_globs << " stale known-failure patterns";
  std::cout << "\n";
  return v.failing_cases ? kExitDivergence : kExitClean;
}

struct SeedOptions {
  matrix::SeedFiles files;
  std::string schema;
};

int matrix_seed(const SeedOptions& o) {
  auto seeded = matrix::seed_files(o.files, [&o] { return load_ir_or_fail(o.schema); });
  const matrix::SeedResult& result = seeded.result;
  std::size_t to_review = 0;
  for (const auto& s : result.added) {
    if (s.disagreements.empty()) continue;
    ++to_review;
    std::cout << "review " << s.c.id << ": the C++ decoder says "
              << (s.c.accepted ? (s.c.warning ? "accepted with a warning" : "accepted without a warning")
                               : "rejected");
    for (const auto& d : s.disagreements) std::cout << "; " << d.implementation << " " << d.answer;
    std::cout << " (" << s.finding << ")\n";
  }
  std::size_t skipped = 0;
  for (const auto& [why, n] : result.skipped) skipped += n;
  std::cout << o.files.out << ": " << result.added.size() << " cases added"
            << (seeded.merged_cases
                    ? " to the " + std::to_string(*seeded.merged_cases) + " of " + o.files.merge
                    : std::string())
            << ", " << result.duplicates << " duplicate payloads left out, " << skipped
            << " findings not seeded";
  const char* sep = " (";
  for (const auto& [why, n] : result.skipped) {
    std::cout << sep << why << ": " << n;
    sep = "; ";
  }
  std::cout << (skipped ? ")" : "") << "\n"
            << seeded.review_path << ": " << to_review
            << " new cases on which an SDK disagrees with the decoder, for a person "
            << "to confirm\n";
  return kExitClean;
}

const Registration kMatrix{CommandSpec{
    "matrix", "Structural-acceptance matrices: 'matrix run FILE' checks every implementation against one",
    "  crosscheck matrix run tests/data/matrix/draft-structural.json\n"
    "  crosscheck matrix run --adapters cpp,python --verbose matrix.json\n"
    "  crosscheck matrix run --baseline tests/data/baseline/known.json "
    "tests/data/matrix/draft-structural.json\n"
    "  crosscheck matrix seed --findings nightly/findings --out candidates.json\n"
    "  crosscheck matrix seed --findings nightly/ --out my.json --merge my.json",
    [](CLI::App& sub) {
      sub.require_subcommand(1);
      CLI::App* runner =
          sub.add_subcommand("run", "Run a matrix across the adapters; exit 1 if any case fails");
      auto adapters = std::make_shared<AdapterOptions>();
      auto path = std::make_shared<std::string>();
      auto verbose = std::make_shared<bool>(false);
      auto known = std::make_shared<std::string>();
      adapters->add_to(*runner);
      runner->add_option(
          "--baseline,--known", *known,
          "Known failures: a baseline's entries with 'cases' (docs/baseline.md), or the older "
          "{known: {implementation: {case id: reason}}}; an entry for a passing case fails the run");
      runner
          ->add_option("file", *path, "Matrix file {contract, cases:[{id, root, value, accepted, warning}]}")
          ->required();
      runner->add_flag("--verbose", *verbose, "Show passing cases too");

      CLI::App* seeder = sub.add_subcommand(
          "seed",
          "Turn findings that are plain JSON values into matrix cases (expectation: the C++ decoder)");
      auto seed = std::make_shared<SeedOptions>();
      seeder->add_option("--findings", seed->files.findings, "A run folder or its findings folder")
          ->required();
      seeder->add_option("--out", seed->files.out, "Matrix file to write (and OUT.review.json beside it)")
          ->required();
      seeder->add_option(
          "--merge", seed->files.merge,
          "An existing matrix: kept byte for byte, the new cases appended; a payload it has with "
          "another expectation is a conflict (exit 2, nothing written)");
      seeder->add_option("--schema", seed->schema, "Schema for the decoder (default: the installed bundle)");
      seeder->add_flag("--force", seed->files.force,
                       "Replace OUT even when it is not an earlier seed output");
      return [adapters, path, known, verbose, runner, seed]() {
        return runner->parsed() ? matrix_run(*adapters, *path, *known, *verbose) : matrix_seed(*seed);
      };
    }}};

}  // namespace
}  // namespace crosscheck::cli
