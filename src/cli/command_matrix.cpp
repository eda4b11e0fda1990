// command_matrix.cpp: `crosscheck matrix run FILE`, a structural-acceptance matrix
// ({contract, cases: [{id, root, value, accepted, warning}]}) across every implementation, as a
// cases x implementations table of pass and fail.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/result_table.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

struct MatrixCase {
  std::string id, root;
  std::string text;  ///< the value as compact JSON, number spellings kept
  json::Value value;
  bool accepted = false, warning = false;
};

std::vector<MatrixCase> load_matrix(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Fatal("cannot read matrix " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  json::ParseLimits limits;
  limits.max_bytes = std::size_t{1} << 30;
  auto parsed = json::parse(ss.str(), limits);
  if (!parsed.ok()) throw Fatal(path + ": not JSON: " + parsed.error().message());
  const json::Value* cases = parsed.value().is_object() ? parsed.value().find("cases") : nullptr;
  if (!cases || !cases->is_array()) throw Fatal(path + ": field 'cases': expected an array of cases");
  std::vector<MatrixCase> out;
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < cases->items().size(); ++i) {
    const json::Value& c = cases->items()[i];
    std::string where = path + ": cases[" + std::to_string(i) + "]";
    if (!c.is_object()) throw Fatal(where + ": expected an object");
    MatrixCase m;
    const json::Value* id = c.find("id");
    if (!id || !id->is_string()) throw Fatal(where + ".id: expected a string");
    m.id = id->string_value();
    where += " (" + m.id + ")";
    if (!seen.emplace(m.id, i).second)
      throw Fatal(where + ".id: expected a unique id (also cases[" + std::to_string(seen[m.id]) + "])");
    const json::Value* root = c.find("root");
    if (!root || !root->is_string()) throw Fatal(where + ".root: expected a string");
    m.root = root->string_value();
    const json::Value* value = c.find("value");
    if (!value) throw Fatal(where + ".value: expected a JSON value");
    m.value = *value;
    m.text = json::write(*value);
    const json::Value* accepted = c.find("accepted");
    const json::Value* warning = c.find("warning");
    if (!accepted || !accepted->is_bool()) throw Fatal(where + ".accepted: expected true or false");
    if (!warning || !warning->is_bool()) throw Fatal(where + ".warning: expected true or false");
    m.accepted = accepted->as_bool();
    m.warning = warning->as_bool();
    out.push_back(std::move(m));
  }
  return out;
}

/// Does one implementation meet the case? Empty when it does, else why not.
std::string check(const MatrixCase& c, const differential::ImplResult& r, bool reports_warnings) {
  using differential::Outcome;
  if (r.outcome == Outcome::kUnsupported) return "";  // skew: counted apart
  if (r.outcome != Outcome::kAccepted && r.outcome != Outcome::kRejected) {
    return std::string(differential::outcome_name(r.outcome)) + (r.message ? ": " + *r.message : "");
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

/// {"known": {"<implementation>": {"<case id>": "reason"}}}: failures a person has explained.
std::map<std::string, std::map<std::string, std::string>> load_known(const std::string& path) {
  std::map<std::string, std::map<std::string, std::string>> out;
  if (path.empty()) return out;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Fatal("cannot read known-failure list " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = json::parse(ss.str());
  if (!parsed.ok()) throw Fatal(path + ": not JSON: " + parsed.error().message());
  const json::Value* known = parsed.value().is_object() ? parsed.value().find("known") : nullptr;
  if (!known || !known->is_object())
    throw Fatal(path + ": field 'known': expected {implementation: {case id: reason}}");
  for (const auto& impl : known->members()) {
    if (!impl.value.is_object())
      throw Fatal(path + ": field 'known." + impl.key + "': expected {case id: reason}");
    for (const auto& c : impl.value.members()) {
      if (!c.value.is_string() || c.value.string_value().empty()) {
        throw Fatal(path + ": field 'known." + impl.key + "." + c.key + "': expected the reason as a string");
      }
      out[impl.key][c.key] = c.value.string_value();
    }
  }
  return out;
}

int matrix_run(const AdapterOptions& adapters, const std::string& path, const std::string& known_path,
               bool verbose) {
  auto cases = load_matrix(path);
  auto known = load_known(known_path);
  auto set = adapters.start();
  std::vector<differential::DecodeRequest> batch;
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
      if (r.outcome == differential::Outcome::kUnsupported) {
        ++unsupported[i];
        cells.push_back("unsup");
        continue;
      }
      std::string why = check(cases[k], r, reports_warnings[i]);
      auto ki = known.find(names[i]);
      bool is_known = ki != known.end() && ki->second.count(cases[k].id);
      if (is_known && why.empty()) {
        ++stale[i];
        any_fail = true;
        cells.push_back("STALE");
        reasons.push_back(cases[k].id + " [" + names[i] +
                          "]: passes, but the known-failure list says it fails; remove the entry");
      } else if (is_known) {
        ++known_fail[i];
        cells.push_back("known");
        if (verbose)
          reasons.push_back(cases[k].id + " [" + names[i] + "]: known: " + why + " (" +
                            ki->second.at(cases[k].id) + ")");
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
  std::cout << "matrix: " << total_pass << " passed, " << total_fail << " failed\n";
  return failing_cases ? kExitDivergence : kExitClean;
}

const Registration kMatrix{CommandSpec{
    "matrix", "Structural-acceptance matrices: 'matrix run FILE' checks every implementation against one",
    "  crosscheck matrix run tests/data/matrix/draft-structural.json\n"
    "  crosscheck matrix run --adapters cpp,python --verbose matrix.json\n"
    "  crosscheck matrix run --known tests/data/matrix/known-divergences.json "
    "tests/data/matrix/draft-structural.json",
    [](CLI::App& sub) {
      sub.require_subcommand(1);
      CLI::App* runner =
          sub.add_subcommand("run", "Run a matrix across the adapters; exit 1 if any case fails");
      auto adapters = std::make_shared<AdapterOptions>();
      auto path = std::make_shared<std::string>();
      auto verbose = std::make_shared<bool>(false);
      auto known = std::make_shared<std::string>();
      adapters->add_to(*runner);
      runner->add_option("--known", *known,
                         "Known failures {known: {implementation: {case id: reason}}}; stale entries fail");
      runner
          ->add_option("file", *path, "Matrix file {contract, cases:[{id, root, value, accepted, warning}]}")
          ->required();
      runner->add_flag("--verbose", *verbose, "Show passing cases too");
      return [adapters, path, known, verbose] { return matrix_run(*adapters, *path, *known, *verbose); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
