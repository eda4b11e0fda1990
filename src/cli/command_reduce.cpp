// command_reduce.cpp: `crosscheck reduce FINDING`, minimize one finding's input within its bucket and
// write <name>.min.json beside it; `crosscheck reduce DIR` does one finding per bucket of a run folder
// that has none yet (src/reduce, docs/reducer.md). A layer-3 finding (a scenario row) is reduced on the
// clients (or servers) it names and the reference host, through the runners of `scenarios run`.
#include <stdlib.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/scenario_support.hpp"
#include "cli/schema_option.hpp"
#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "exec/adapter_pool.hpp"
#include "interop/server_admission.hpp"
#include "layers/contextual/compare/finding_writer.hpp"
#include "layers/contextual/compare/reference_result.hpp"
#include "layers/contextual/reduce/scenario_reducer.hpp"
#include "reduce/reduce_files.hpp"
#include "run/finding_files.hpp"
#include "run/replay.hpp"
#include "run/run_file.hpp"
#include "util/result.hpp"
#include "util/running_executable.hpp"

namespace crosscheck::cli {
namespace {

struct ReduceCliOptions {
  AdapterOptions adapters;
  std::string finding;  ///< a finding file, or a run folder
  std::string bucket;
  std::size_t budget = 2000;
  std::size_t batch = 16;
  bool verbose = false;
  bool budget_given = false;  ///< layer 3 counts client runs: its default budget is smaller
  bool batch_given = false;   ///< layer 3 batches rows per client run: its default batch is larger
  std::string client_config;  ///< layer 3: --client-config (default: the finding's)
};

namespace fs = std::filesystem;

constexpr std::size_t kScenarioDefaultBudget = 60;
constexpr std::size_t kScenarioDefaultBatch = 32;

/// The clients a layer-3 finding ran on and the reference host, run on batches of rows; one work
/// folder (removed at the end) holds every batch.
class ClientRig {
 public:
  ClientRig(const ReduceCliOptions& o, const run::Finding& f) {
    const run::ScenarioCase& c = *f.scenario;
    servers_ = c.mode == run::kScenarioServers;
    ir_ = std::make_unique<schema::Ir>(
        load_ir_or_fail(o.adapters.schema.empty() ? c.schema : o.adapters.schema));
    auto reference = canonical::CanonicalValidator::from_ir(*ir_);
    if (!reference.ok())
      throw Fatal("the schema does not load as canonical schemas: " + reference.error().text());
    reference_.emplace(std::move(reference).value());
    clients_ = pick_clients(o.client_config.empty() ? c.client_config : o.client_config, c.clients, servers_);
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

reduce::ScenarioReduceOptions scenario_options(const ReduceCliOptions& o, const ClientRig& rig) {
  reduce::ScenarioReduceOptions options;
  options.budget = o.budget_given ? o.budget : kScenarioDefaultBudget;
  options.batch = o.batch_given ? o.batch : kScenarioDefaultBatch;
  options.validator = &rig.reference();
  options.should_stop = [] { return exec::stop_requested(); };
  if (o.verbose) options.log = &std::cerr;
  return options;
}

// Layer 3: one scenario row, reduced on the clients it names and the reference host.
int reduce_scenario_file(const ReduceCliOptions& o, const run::Finding& f) {
  std::optional<std::string> bucket;
  if (!o.bucket.empty()) bucket = o.bucket;
  auto target = reduce::target_bucket(o.finding, f, bucket);
  if (!target.ok()) throw Fatal(target.error());
  if (auto row = reduce::finding_row(o.finding, f); !row.ok()) throw Fatal(row.error());
  exec::install_stop_handlers();
  ClientRig rig(o, f);
  if (o.verbose) rig.keep();
  auto options = scenario_options(o, rig);
  auto r = reduce::reduce_scenario_finding(
      o.finding, f, target.value().bucket, [&](const std::vector<scenario::Row>& rows) { return rig(rows); },
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
  if (fr.written) {
    std::cout << "wrote:  " << fr.min_path << "\n";
  } else {
    std::cout << "note:   " << fr.note << "\n";
  }
  if (o.verbose) std::cout << "work:   " << rig.work() << "\n";
  std::cout << "replay: " << run::replay_command(fr.min_path) << "\n";
  if (res.stopped && exec::stop_requested())
    std::cout << "interrupted: the row above is the smallest found so far; run the same command to go on\n";
  return kExitClean;
}

/// A run folder of `scenarios run`: its findings are layer-3 rows.
bool is_scenario_folder(const fs::path& findings) {
  for (const auto& listed : run::list_finding_files(findings)) {
    auto f = run::FindingStore::load(listed.path);
    if (f.ok() && f.value().scenario) return true;
  }
  return false;
}

/// The last lines of a run folder's reduction, the same for both layers' reducers.
template <typename Done>
void print_folder_summary(const Done& done, std::size_t budget, const char* unit) {
  for (const auto& s : done.skipped) std::cout << "not reduced: " << s << "\n";
  std::cout << done.reduced.size() << " finding(s) minimized in " << done.calls << " of " << budget << " "
            << unit;
  if (done.buckets_left)
    std::cout << "; " << done.buckets_left << " bucket(s) left (run again, or a larger --budget)";
  std::cout << "\n";
}

int reduce_scenario_run(const ReduceCliOptions& o, const fs::path& findings) {
  if (!o.bucket.empty()) throw Fatal("--bucket goes with one finding file, not with a run folder");
  exec::install_stop_handlers();
  std::vector<std::unique_ptr<ClientRig>> rigs;  // alive until the folder is done
  reduce::ScenarioReduceOptions base;
  base.batch = o.batch_given ? o.batch : kScenarioDefaultBatch;
  base.should_stop = [] { return exec::stop_requested(); };
  if (o.verbose) base.log = &std::cerr;
  auto factory = [&](const run::Finding& f) -> reduce::ScenarioRig {
    rigs.push_back(std::make_unique<ClientRig>(o, f));
    ClientRig* rig = rigs.back().get();
    return {[rig](const std::vector<scenario::Row>& rows) { return (*rig)(rows); }, &rig->reference()};
  };
  const std::size_t budget = o.budget_given ? o.budget : kScenarioDefaultBudget * 4;
  auto done = reduce::reduce_scenario_run_folder(findings.string(), factory, budget, base, std::cout);
  print_folder_summary(done, budget, "client runs");
  return kExitClean;
}

int reduce_run(const ReduceCliOptions& o) {
  std::error_code ec;
  if (!std::filesystem::is_directory(std::filesystem::path(o.finding) / "findings", ec))
    throw Fatal(o.finding +
                ": expected a finding file, or a run folder holding findings/ (crosscheck fuzz --out)");
  // A fuzz run with layer 3 holds both kinds: its scenario rows on their clients, then the payloads.
  const bool scenarios = is_scenario_folder(fs::path(o.finding) / "findings");
  if (scenarios) {
    const int rc = reduce_scenario_run(o, fs::path(o.finding) / "findings");
    const auto config = run::read_run_config(o.finding);
    if (!config || config->command == run::kScenariosCommand) return rc;
  }
  if (!o.bucket.empty()) throw Fatal("--bucket goes with one finding file, not with a run folder");
  auto ir = load_ir_or_fail(o.adapters.schema);
  exec::install_stop_handlers();
  auto set = o.adapters.start();
  reduce::RunReduceOptions r;
  r.total_budget = o.budget;
  r.base.batch = o.batch;
  r.base.oracle = &ir;
  r.base.should_stop = [] { return exec::stop_requested(); };
  if (o.verbose) r.base.log = &std::cerr;
  auto done = reduce::reduce_run_folder(o.finding, *set, r, std::cout);
  print_folder_summary(done, o.budget, "calls");
  return kExitClean;
}

int reduce_command(const ReduceCliOptions& o) {
  std::error_code ec;
  if (std::filesystem::is_directory(o.finding, ec)) return reduce_run(o);
  // Bad input is found before any adapter starts: the file must load and have the bucket.
  auto loaded = run::FindingStore::load(o.finding);
  if (!loaded.ok()) throw Fatal(loaded.error());
  if (loaded.value().scenario) return reduce_scenario_file(o, loaded.value());
  std::optional<std::string> bucket;
  if (!o.bucket.empty()) bucket = o.bucket;
  if (auto target = reduce::target_bucket(o.finding, loaded.value(), bucket); !target.ok())
    throw Fatal(target.error());
  auto ir = load_ir_or_fail(o.adapters.schema);
  exec::install_stop_handlers();
  auto set = o.adapters.start();
  reduce::ReduceOptions options;
  options.budget = o.budget;
  options.batch = o.batch;
  options.oracle = &ir;
  options.should_stop = [] { return exec::stop_requested(); };
  if (o.verbose) options.log = &std::cerr;
  auto r = reduce::reduce_finding_file(o.finding, bucket, *set, options);
  if (!r.ok()) throw Fatal(r.error());
  const reduce::FileReduction& fr = r.value();
  const reduce::ReduceResult& res = fr.result;
  const core::Divergence* d = nullptr;
  for (const auto& x : res.results.divergences) {
    if (x.bucket == fr.bucket) d = &x;
  }
  std::cout << "bucket " << fr.bucket;
  if (d) std::cout << " (" << core::class_name(d->cls) << "): " << d->detail;
  std::cout << "\n"
            << "bytes:  " << fr.bytes_before << " -> " << res.input.size() << " (" << res.mode
            << " reduction)\n"
            << "calls:  " << res.calls << " of " << o.budget
            << (res.budget_exhausted ? " (budget reached)" : "") << (res.stopped ? " (stopped early)" : "")
            << (res.oracle_used ? "; " + std::to_string(res.screened) + " candidates ruled out in process"
                                : "")
            << "\n"
            << "input:  " << reduce::printable(res.input) << "\n";
  if (fr.written) {
    std::cout << "wrote:  " << fr.min_path << "\n";
  } else {
    std::cout << "note:   " << fr.note << "\n";
  }
  std::cout << "replay: " << run::replay_command(fr.min_path) << "\n";
  if (res.stopped && exec::stop_requested())
    std::cout << "interrupted: the input above is the smallest found so far; run the same command to go on\n";
  return kExitClean;
}

const Registration kReduce{CommandSpec{
    "reduce",
    "Minimize a finding's input within its bucket; writes <name>.min.json beside it (or a whole run folder)",
    "  crosscheck reduce crosscheck-out/findings/diverge-0a1b2c.json\n"
    "  crosscheck reduce --bucket 3f2a9c0d11e4b7a8 --budget 500 crosscheck-out/findings/diverge-0a1b2c.json\n"
    "  crosscheck reduce --adapters cpp,python nightly/findings/crash-python-77aa.json\n"
    "  crosscheck reduce nightly/ --budget 5000      # a run folder: one finding per bucket\n"
    "  crosscheck reduce scen-out/findings/diverge-4c1d.json   # a layer-3 finding: its row, on its clients",
    [](CLI::App& sub) {
      auto o = std::make_shared<ReduceCliOptions>();
      o->adapters.add_to(sub);
      sub.add_option("finding", o->finding,
                     "A finding file written by run, fuzz or scenarios run; or a run folder: then the "
                     "smallest finding of "
                     "each bucket without a .min.json, --budget calls in total")
          ->required();
      sub.add_option("--bucket", o->bucket,
                     "The divergence bucket to keep (default: the finding's first contract divergence)");
      auto* budget = sub.add_option("--budget", o->budget,
                                    "Payload evaluations sent to the implementations, at most (a layer-3 "
                                    "finding: client runs, default 60; a scenarios run folder: 240)")
                         ->capture_default_str()
                         ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}));
      sub.add_option(
          "--client-config", o->client_config,
          "Layer 3: the client configuration (default: the finding's, else adapters/clients.json)");
      auto* batch = sub.add_option("--batch", o->batch,
                                   "Candidates per adapter batch (layer 3: rows per client run, default 32)")
                        ->capture_default_str()
                        ->check(CLI::Range(std::size_t{1}, std::size_t{4096}));
      sub.add_flag("--verbose", o->verbose, "One line per phase on stderr");
      return [o, budget, batch] {
        o->budget_given = budget->count() > 0;
        o->batch_given = batch->count() > 0;
        return reduce_command(*o);
      };
    }}};

}  // namespace
}  // namespace crosscheck::cli
