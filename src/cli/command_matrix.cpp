// command_matrix.cpp: `crosscheck matrix run FILE`, a structural-acceptance matrix
// ({contract, cases: [{id, root, value, accepted, warning}]}) across every implementation, as a
// cases x implementations table of pass and fail; `crosscheck matrix seed`, new cases from findings.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "baseline/baseline.hpp"
#include "baseline/known_cases.hpp"
#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/result_table.hpp"
#include "cli/schema_option.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"
#include "matrix/seed.hpp"
#include "run/finding_file.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

using matrix::MatrixCase;

/// Does one implementation meet the case? Empty when it does, else why not.
std::string check(const MatrixCase& c, const core::ImplResult& r, bool reports_warnings) {
  using core::Outcome;
  if (r.outcome == Outcome::kUnsupported) return "";  // skew: counted apart
  if (r.outcome != Outcome::kAccepted && r.outcome != Outcome::kRejected) {
    return std::string(core::outcome_name(r.outcome)) + (r.message ? ": " + *r.message : "");
  }
  bool accepted = r.outcome == Outcome::kAccepted;
  bool warning = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                             [](const auto& d) { return d.severity == "warning"; });
  if (accepted != c.accepted) {
    std::string first;
    for (const auto& d : r.diagnostics) {
      if (d.severity == "error") {
        first = " (" + d.code + " at '" + d.path + "')";
        break;
      }
    }
    return accepted ? "accepted, expected rejected" : "rejected, expected accepted" + first;
  }
  if (reports_warnings && warning != c.warning)
    return warning ? "warned, expected no warning" : "no warning, expected one";
  if (accepted) {
    if (!r.encoded)
      return "accepted but did not re-encode" + (r.encode_error ? ": " + *r.encode_error : std::string());
    json::ParseLimits limits;
    limits.max_depth = 100000;
    auto enc = json::parse(*r.encoded, limits);
    if (!enc.ok() || !json::semantically_equal(enc.value(), c.value))
      return "re-encoding differs from the value";
  }
  return "";
}

int matrix_run(const AdapterOptions& adapters, const std::string& path, const std::string& known_path,
               bool verbose) {
  auto cases = matrix::load_matrix(path).cases;
  baseline::KnownCases known(baseline::load_known_cases(known_path));
  std::set<std::string> ids;
  for (const auto& c : cases) ids.insert(c.id);
  auto set = adapters.start();
  std::vector<exec::DecodeRequest> batch;
  for (const auto& c : cases) batch.push_back({c.root, c.text});
  auto results = set->run(batch);
  auto names = set->names();
  std::vector<bool> reports_warnings;
  for (const auto& id : set->identities()) reports_warnings.push_back(id.reports_warnings);
  ResultTable table(names);
  std::vector<std::size_t> passed(names.size()), failed(names.size()), unsupported(names.size()),
      known_fail(names.size()), stale(names.size());
  std::size_t failing_cases = 0;
  std::vector<std::string> reasons;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    std::vector<std::string> cells;
    bool any_fail = false;
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto& r = results[k].results[i];
      if (r.outcome == core::Outcome::kUnsupported) {
        ++unsupported[i];
        cells.push_back("unsup");
        continue;
      }
      std::string why = check(cases[k], r, reports_warnings[i]);
      baseline::CaseCell cell = known.judge(names[i], cases[k].id, !why.empty());
      if (cell.state == baseline::CaseState::kStale) {
        ++stale[i];
        any_fail = true;
        cells.push_back("STALE");
        reasons.push_back(cases[k].id + " [" + names[i] +
                          "]: passes, but the known-failure list says it fails (" + cell.entries +
                          "); remove it there");
      } else if (cell.state == baseline::CaseState::kKnown) {
        ++known_fail[i];
        cells.push_back("known");
        if (verbose)
          reasons.push_back(cases[k].id + " [" + names[i] + "]: known: " + why + " (" + cell.entries + ")");
      } else if (why.empty()) {
        ++passed[i];
        cells.push_back("pass");
      } else {
        ++failed[i];
        any_fail = true;
        cells.push_back("FAIL");
        reasons.push_back(cases[k].id + " [" + names[i] + "]: " + why);
      }
    }
    if (any_fail) ++failing_cases;
    if (any_fail || verbose) table.add_row(cases[k].id, std::move(cells), any_fail ? "FAIL" : "pass");
  }
  // A glob that covered no failing cell of an implementation of this run is stale; an exact id the
  // matrix lacks is probably a rename (or an entry for another matrix).
  std::vector<std::string> unknown_ids;
  auto stale_patterns = known.stale_patterns(names, ids, unknown_ids);
  std::size_t stale_globs = stale_patterns.size();
  reasons.insert(reasons.end(), stale_patterns.begin(), stale_patterns.end());
  for (const auto& u : unknown_ids) std::cerr << "WARNING: " << u << ", which " << path << " does not have\n";
  if (stale_globs) failing_cases += stale_globs;
  std::cout << "matrix " << path << ": " << cases.size() << " cases x " << names.size()
            << " implementations\n";
  table.print(std::cout);
  for (const auto& r : reasons) std::cout << "  " << r << "\n";
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::cout << names[i] << ": " << passed[i] << " passed, " << failed[i] << " failed";
    if (known_fail[i]) std::cout << ", " << known_fail[i] << " known";
    if (stale[i]) std::cout << ", " << stale[i] << " stale";
    if (unsupported[i]) std::cout << ", " << unsupported[i] << " unsupported";
    std::cout << "\n";
  }
  std::size_t total_pass = 0, total_fail = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    total_pass += passed[i];
    total_fail += failed[i] + stale[i];
  }
  std::cout << "matrix: " << total_pass << " passed, " << total_fail << " failed";
  if (stale_globs) std::cout << ", " << stale_globs << " stale known-failure patterns";
  std::cout << "\n";
  return failing_cases ? kExitDivergence : kExitClean;
}

struct SeedOptions {
  std::string findings, out, merge, schema;
  bool force = false;
};

/// seeds.json -> seeds.review.json
std::string review_path(const std::string& out) {
  std::string stem = out.size() > 5 && out.ends_with(".json") ? out.substr(0, out.size() - 5) : out;
  return stem + ".review.json";
}

/// Refuses a matrix that does not fit schemas/matrix.schema.json, naming the case and field.
void validate_matrix_text(const std::string& path, const std::string& text, bool ours) {
  json::ParseLimits limits;
  limits.max_bytes = std::size_t{1} << 30;
  auto parsed = json::parse(text, limits);
  if (!parsed.ok()) throw Fatal(path + ": not JSON: " + parsed.error().message());
  if (auto bad = json::shipped_schema("matrix.schema.json").validate(parsed.value())) {
    throw Fatal((ours ? "internal: the seeded matrix for " : "") + path + ": " +
                json::describe_location(parsed.value(), bad->pointer) + ": " + bad->message +
                (ours ? "; nothing written" : " (schemas/matrix.schema.json)"));
  }
}

int matrix_seed(const SeedOptions& o) {
  namespace fs = std::filesystem;
  auto run = baseline::load_run_folder(o.findings);
  std::optional<matrix::Matrix> merge;
  if (!o.merge.empty()) {
    merge = matrix::load_matrix(o.merge);
    validate_matrix_text(o.merge, merge->text, false);
  }
  std::error_code ec;
  if (fs::exists(o.out, ec) && !(merge && fs::equivalent(o.out, o.merge, ec)) && !o.force) {
    // An earlier seed output may be replaced; a matrix someone wrote may not.
    bool earlier_seed = false;
    try {
      earlier_seed = matrix::load_matrix(o.out).contract == matrix::kSeedContract;
    } catch (const Fatal&) {
    }
    if (!earlier_seed) {
      throw Fatal(o.out + " exists and is not an earlier matrix seed output: add to it with --merge " +
                  o.out + ", or replace it with --force");
    }
  }
  auto ir = load_ir_or_fail(o.schema);
  auto result = matrix::seed_matrix(ir, run.findings, merge ? &*merge : nullptr, o.out);
  validate_matrix_text(o.out, result.matrix_text, true);
  std::string review = review_path(o.out);
  run::write_file_atomically(o.out, result.matrix_text);
  run::write_file_atomically(review, result.review_text);
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
  std::cout << o.out << ": " << result.added.size() << " cases added"
            << (merge ? " to the " + std::to_string(merge->cases.size()) + " of " + o.merge : std::string())
            << ", " << result.duplicates << " duplicate payloads left out, " << skipped
            << " findings not seeded";
  const char* sep = " (";
  for (const auto& [why, n] : result.skipped) {
    std::cout << sep << why << ": " << n;
    sep = "; ";
  }
  std::cout << (skipped ? ")" : "") << "\n"
            << review << ": " << to_review
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
      seeder->add_option("--findings", seed->findings, "A run folder or its findings folder")->required();
      seeder->add_option("--out", seed->out, "Matrix file to write (and OUT.review.json beside it)")
          ->required();
      seeder->add_option(
          "--merge", seed->merge,
          "An existing matrix: kept byte for byte, the new cases appended; a payload it has with "
          "another expectation is a conflict (exit 2, nothing written)");
      seeder->add_option("--schema", seed->schema, "Schema for the decoder (default: the installed bundle)");
      seeder->add_flag("--force", seed->force, "Replace OUT even when it is not an earlier seed output");
      return [adapters, path, known, verbose, runner, seed]() {
        return runner->parsed() ? matrix_run(*adapters, *path, *known, *verbose) : matrix_seed(*seed);
      };
    }}};

}  // namespace
}  // namespace crosscheck::cli
