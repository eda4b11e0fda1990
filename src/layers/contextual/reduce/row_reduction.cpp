// row_reduction.cpp: layer-3 findings reduced on their clients (row_reduction.hpp).
#include "layers/contextual/reduce/row_reduction.hpp"

#include <stdlib.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "canonical/canonical_validator.hpp"
#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "interop/client_choice.hpp"
#include "interop/client_runner.hpp"
#include "interop/server_admission.hpp"
#include "layers/contextual/compare/finding_writer.hpp"
#include "layers/contextual/compare/reference_result.hpp"
#include "layers/contextual/compare/scenario_verdict.hpp"
#include "layers/contextual/reduce/scenario_reducer.hpp"
#include "reduce/folder_summary.hpp"
#include "reduce/reduce_files.hpp"
#include "run/finding_files.hpp"
#include "run/replay.hpp"
#include "run/run_file.hpp"
#include "schema/ir.hpp"
#include "util/result.hpp"
#include "util/running_executable.hpp"

namespace crosscheck::reduce {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kScenarioDefaultBudget = 60;
constexpr std::size_t kScenarioDefaultBatch = 32;

/// The clients a layer-3 finding ran on and the reference host, run on batches of rows; one work
/// folder (removed at the end) holds every batch.
class ClientRig {
 public:
  ClientRig(const layers::ReduceRequest& o, const run::Finding& f) {
    const run::ScenarioCase& c = *f.scenario;
    servers_ = c.mode == run::kScenarioServers;
    ir_ = o.load_schema(o.schema_path.empty() ? c.schema : o.schema_path);
    auto reference = canonical::CanonicalValidator::from_ir(*ir_);
    if (!reference.ok())
      throw Fatal("the schema does not load as canonical schemas: " + reference.error().text());
    reference_.emplace(std::move(reference).value());
    clients_ = scenario::pick_clients(o.client_config.empty() ? c.client_config : o.client_config, c.clients,
                                      servers_);
    context_ = scenario::FindingContext{c.file, c.clients, c.client_config, c.schema};
    std::string pattern = (fs::temp_directory_path() / "crosscheck-reduce-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw Fatal("cannot create a work folder under " + pattern);
    work_ = pattern;
    scenario::RunnerOptions options;
    options.work_dir = (fs::path(work_) / "clients").string();
    options.crosscheck_exe = running_executable();
    scenario::AdmissionOptions admission;
    admission.work_dir = (fs::path(work_) / "servers").string();
    for (const auto& x : clients_) {
      if (servers_) {
        servers_runners_.push_back(std::make_unique<scenario::AdmissionRunner>(x, admission));
      } else {
        runners_.push_back(std::make_unique<scenario::ClientRunner>(x, options));
      }
    }
  }
  ~ClientRig() {
    std::error_code ec;
    if (!keep_) fs::remove_all(work_, ec);
  }
  ClientRig(const ClientRig&) = delete;
  ClientRig& operator=(const ClientRig&) = delete;

  const canonical::CanonicalValidator& reference() const { return *reference_; }
  std::size_t clients() const { return clients_.size(); }
  void keep() { keep_ = true; }
  const std::string& work() const { return work_; }

  std::vector<std::optional<run::Finding>> operator()(const std::vector<scenario::Row>& rows) {
    std::vector<const scenario::Row*> ptrs;
    for (const auto& r : rows) ptrs.push_back(&r);
    if (servers_) return admissions(rows, ptrs);
    std::vector<std::map<std::string, scenario::RowResult>> answers;
    for (auto& runner : runners_) answers.push_back(runner->run(ptrs));
    std::vector<std::optional<run::Finding>> out;
    for (const auto& row : rows) {
      scenario::RowResult ref = scenario::reference_result(*reference_, row);
      scenario::ClientResults results{{core::kReferenceImplementation, &ref}};
      for (std::size_t i = 0; i < clients_.size(); ++i)
        results.emplace_back(clients_[i].name, &answers[i][row.id]);
      out.push_back(scenario::row_finding(row, scenario::compare_row(row, results), results, context_));
    }
    return out;
  }

 private:
  // Request admission (--servers): a refusal after earlier rows, where the reference admits, is asked
  // again alone, as `scenarios run --servers` does (a server keeps state across requests).
  std::vector<std::optional<run::Finding>> admissions(const std::vector<scenario::Row>& rows,
                                                      const std::vector<const scenario::Row*>& ptrs) {
    std::map<std::string, scenario::Admission> reference;
    for (const auto& row : rows) reference[row.id] = scenario::reference_admission(*reference_, row);
    auto reference_admits = [&](const scenario::Row& row) { return reference[row.id].status == "admitted"; };
    std::vector<std::map<std::string, scenario::Admission>> answers;
    for (auto& runner : servers_runners_) answers.push_back(runner->run(ptrs, reference_admits));
    std::vector<std::optional<run::Finding>> out;
    for (const auto& row : rows) {
      scenario::AdmissionResults results{{core::kReferenceImplementation, &reference[row.id]}};
      for (std::size_t i = 0; i < clients_.size(); ++i)
        results.emplace_back(clients_[i].name, &answers[i][row.id]);
      out.push_back(
          scenario::admission_finding(row, scenario::compare_admission(row, results), results, context_));
    }
    return out;
  }

  bool servers_ = false;
  std::vector<std::unique_ptr<scenario::AdmissionRunner>> servers_runners_;
  std::unique_ptr<schema::Ir> ir_;
  std::optional<canonical::CanonicalValidator> reference_;
  std::vector<scenario::ClientSpec> clients_;
  std::vector<std::unique_ptr<scenario::ClientRunner>> runners_;
  scenario::FindingContext context_;
  std::string work_;
  bool keep_ = false;
};

reduce::ScenarioReduceOptions scenario_options(const layers::ReduceRequest& o, const ClientRig& rig) {
  reduce::ScenarioReduceOptions options;
  options.budget = o.budget.value_or(kScenarioDefaultBudget);
  options.batch = o.batch.value_or(kScenarioDefaultBatch);
  options.validator = &rig.reference();
  options.should_stop = o.should_stop;
  if (o.verbose) options.log = &std::cerr;
  return options;
}

// Layer 3: one scenario row, reduced on the clients it names and the reference host.
}  // namespace

int reduce_row_finding(const layers::ReduceRequest& o, const run::Finding& f) {
  std::optional<std::string> bucket;
  if (!o.bucket.empty()) bucket = o.bucket;
  auto target = reduce::target_bucket(o.path, f, bucket);
  if (!target.ok()) throw Fatal(target.error());
  if (auto row = reduce::finding_row(o.path, f); !row.ok()) throw Fatal(row.error());
  ClientRig rig(o, f);
  if (o.verbose) rig.keep();
  auto options = scenario_options(o, rig);
  auto r = reduce::reduce_scenario_finding(
      o.path, f, target.value().bucket, [&](const std::vector<scenario::Row>& rows) { return rig(rows); },
      options);
  if (!r.ok()) throw Fatal(r.error());
  const reduce::ScenarioFileReduction& fr = r.value();
  const reduce::ScenarioReduceResult& res = fr.result;
  const core::Divergence* d = nullptr;
  for (const auto& x : res.finding->divergences) {
    if (x.bucket == fr.bucket) d = &x;
  }
  std::cout << "bucket " << fr.bucket;
  if (d) std::cout << " (" << core::class_name(d->cls) << "): " << d->detail;
  std::cout << "\n"
            << "row:    " << fr.size_before << " -> " << reduce::row_size(res.input)
            << " bytes (canonical JSON; scenario reduction, id kept)\n"
            << "calls:  " << res.calls << " of " << options.budget << " (each a run of " << rig.clients()
            << (f.scenario->mode == run::kScenarioServers ? " server(s)" : " client(s)") << " on one batch)"
            << (res.budget_exhausted ? " (budget reached)" : "") << (res.stopped ? " (stopped early)" : "")
            << "; " << res.candidates << " rows sent, " << res.screened
            << " candidates ruled out in process; "
            << (res.batched ? "batched under renamed ids" : "one row per run (the bucket needs the real id)")
            << (res.walked_back ? "; the batched result did not confirm under the real id, walked back" : "")
            << "\n"
            << "input:  " << reduce::printable(res.input) << "\n";
  reduce::print_written(std::cout, fr.written, fr.min_path, fr.note);
  if (o.verbose) std::cout << "work:   " << rig.work() << "\n";
  std::cout << "replay: " << run::replay_command(fr.min_path) << "\n";
  if (res.stopped && o.should_stop && o.should_stop())
    std::cout << "interrupted: the row above is the smallest found so far; run the same command to go on\n";
  return kExitClean;
}

namespace {

/// A run folder holding layer-3 rows (`scenarios run`, or `fuzz` with layer 3).
bool is_scenario_folder(const fs::path& findings) {
  for (const auto& listed : run::list_finding_files(findings)) {
    auto f = run::FindingStore::load(listed.path);
    if (f.ok() && f.value().scenario) return true;
  }
  return false;
}

int reduce_scenario_run(const layers::ReduceRequest& o, const fs::path& findings) {
  if (!o.bucket.empty()) throw Fatal("--bucket goes with one finding file, not with a run folder");
  std::vector<std::unique_ptr<ClientRig>> rigs;  // alive until the folder is done
  reduce::ScenarioReduceOptions base;
  base.batch = o.batch.value_or(kScenarioDefaultBatch);
  base.should_stop = o.should_stop;
  if (o.verbose) base.log = &std::cerr;
  auto factory = [&](const run::Finding& f) -> reduce::ScenarioRig {
    rigs.push_back(std::make_unique<ClientRig>(o, f));
    ClientRig* rig = rigs.back().get();
    return {[rig](const std::vector<scenario::Row>& rows) { return (*rig)(rows); }, &rig->reference()};
  };
  const std::size_t budget = o.budget.value_or(kScenarioDefaultBudget * 4);
  auto done = reduce::reduce_scenario_run_folder(findings.string(), factory, budget, base, std::cout);
  print_folder_summary(done, budget, "client runs");
  return kExitClean;
}

}  // namespace

layers::FolderReduction reduce_row_findings(const layers::ReduceRequest& o) {
  const fs::path findings = fs::path(o.path) / "findings";
  if (!is_scenario_folder(findings)) return {};
  layers::FolderReduction done;
  done.reduced = true;
  done.exit_code = reduce_scenario_run(o, findings);
  // A fuzz run with layer 3 holds both kinds: the payloads are reduced after its rows.
  const auto config = run::read_run_config(o.path);
  done.whole_folder = !config || config->command == run::kScenariosCommand;
  return done;
}

}  // namespace crosscheck::reduce
