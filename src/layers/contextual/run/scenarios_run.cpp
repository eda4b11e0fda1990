// scenarios_run.cpp: `crosscheck scenarios run` (scenarios_run.hpp).
#include "layers/contextual/run/scenarios_run.hpp"

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "baseline/baseline.hpp"
#include "baseline/classify.hpp"
#include "canonical/canonical_validator.hpp"
#include "core/impl_result.hpp"
#include "interop/client_choice.hpp"
#include "interop/client_config.hpp"
#include "interop/client_runner.hpp"
#include "interop/server_admission.hpp"
#include "layers/contextual/compare/finding_writer.hpp"
#include "layers/contextual/compare/reference_result.hpp"
#include "layers/contextual/compare/scenario_verdict.hpp"
#include "layers/contextual/rows/scenario_file.hpp"
#include "layers/contextual/rows/skew.hpp"
#include "report/result_table.hpp"
#include "run/finding_file.hpp"
#include "run/finding_files.hpp"
#include "run/layout.hpp"
#include "run/run_file.hpp"
#include "run/summary_file.hpp"
#include "util/duration.hpp"
#include "util/result.hpp"
#include "util/running_executable.hpp"

namespace crosscheck::scenario {
namespace {

namespace fs = std::filesystem;

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string cell(const scenario::Row& row, const scenario::RowResult& r) {
  scenario::ExpectationVerdict v = scenario::check_expectation(row, r);
  if (!v.applicable) return r.status;
  std::string text = v.met ? "passed" : "failed(" + (v.keys.empty() ? v.kind : join(v.keys, ",")) + ")";
  // The client's own verdict, when it disagrees with crosscheck's reading of its result.
  if ((r.status == "passed") != v.met) text += " [client: " + r.status + "]";
  return text;
}

struct Tally {
  std::size_t rows_total = 0, skewed = 0, completed = 0, rows_run = 0, broken = 0;
  run::Summary summary;  ///< the counts summary.json keeps
  std::set<std::string> buckets;
};

/// Writes the row's finding (when it has one) and counts it; returns the table's verdict text.
std::string record(run::FindingStore& store, std::optional<run::Finding> finding,
                   const std::vector<scenario::Difference>& differences, Tally& tally) {
  std::vector<std::string> verdicts;
  for (const auto& d : differences) verdicts.push_back(d.cls + ": " + d.summary);
  if (!finding) return verdicts.empty() ? "ok" : join(verdicts, "; ");
  run::count_finding(tally.summary, *finding);
  for (const auto& d : finding->divergences) tally.buckets.insert(d.bucket);
  scenario::write_row_finding(store, std::move(*finding));
  return verdicts.empty() ? "ok" : join(verdicts, "; ");
}

// --servers: each runnable row's request to every SDK's interop server and to the reference.
void admit(const ScenariosRunOptions& o, const scenario::ScenarioFile& file,
           const std::vector<const scenario::Row*>& runnable, const std::map<std::string, std::string>& skew,
           const std::vector<scenario::ClientSpec>& sdks, const canonical::CanonicalValidator& reference,
           const scenario::FindingContext& context, run::FindingStore& store, report::ResultTable& table,
           Tally& tally) {
  scenario::AdmissionOptions options;
  options.work_dir = (fs::path(o.out) / "servers").string();
  options.deadline = std::chrono::milliseconds(
      static_cast<long long>(parse_duration("--request-deadline", o.request_deadline) * 1000));
  std::map<std::string, scenario::Admission> reference_answers;
  for (const scenario::Row* row : runnable)
    reference_answers[row->id] = scenario::reference_admission(reference, *row);
  auto reference_admits = [&](const scenario::Row& row) {
    return reference_answers[row.id].status == "admitted";
  };
  std::map<std::string, std::map<std::string, scenario::Admission>> answers;
  for (const auto& c : sdks) {
    scenario::AdmissionRunner runner(c, options);
    answers[c.name] = runner.run(runnable, reference_admits);
  }
  std::string prefix = o.files.size() > 1 ? fs::path(file.path).filename().string() + ": " : "";
  for (const auto& row : file.rows) {
    if (auto sk = skew.find(row.id); sk != skew.end()) {
      table.add_row(prefix + row.id, std::vector<std::string>(sdks.size() + 1, "skew"),
                    "skew: " + sk->second);
      continue;
    }
    const scenario::Admission& ref = reference_answers[row.id];
    scenario::AdmissionResults results{{core::kReferenceImplementation, &ref}};
    std::vector<std::string> cells{ref.status};
    for (const auto& c : sdks) {
      const scenario::Admission& a = answers[c.name][row.id];
      results.emplace_back(c.name, &a);
      cells.push_back(a.status);
      if (a.status == "crash" || a.status == "timeout" || a.status == "protocol") {
        ++tally.broken;
        std::cerr << "server '" << c.name << "', row " << row.id << ": " << a.status << ": " << a.error
                  << "\n";
      }
      for (const auto& note : a.notes)
        std::cerr << "note: server '" << c.name << "', row " << row.id << ": " << note << "\n";
    }
    auto differences = scenario::compare_admission(row, results);
    std::string verdict =
        record(store, scenario::admission_finding(row, differences, results, context), differences, tally);
    table.add_row(prefix + row.id, cells, verdict);
  }
}

/// OUT as a run folder of this command: refused when it holds another command's run; the findings
/// and records of an earlier scenarios run there are removed, since this run stands for the folder.
void prepare_out(const ScenariosRunOptions& o) {
  const fs::path out(o.out);
  if (auto config = run::read_run_config(out); config && config->command != run::kScenariosCommand)
    throw Fatal(o.out + ": holds a run of another command (" + (out / run::kRunFile).string() +
                "); choose another --out folder");
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) throw Fatal("cannot create the output folder " + o.out + ": " + ec.message());
  std::size_t removed = 0;
  for (const auto& f : run::list_finding_files(out / run::kFindingsDir)) removed += fs::remove(f.path, ec);
  for (const char* name : {run::kSummaryFile, run::kVerdictFile, run::kBaselineCheckFile})
    fs::remove(out / name, ec);
  if (removed)
    std::cerr << "note: removed the " << removed << " finding(s) of an earlier scenarios run in " << o.out
              << "\n";
}

}  // namespace

int run_scenarios(const ScenariosRunOptions& o) {
  const std::vector<std::string> named_clients = scenario::client_names(o.clients_text);
  // The baseline is checked before any work starts (a bad one is exit 2, nothing run).
  std::optional<baseline::Baseline> known;
  if (!o.baseline.empty()) known = baseline::load_baseline(o.baseline);
  std::string harness_name, harness_version;
  if (!o.complete_harness.empty()) {
    auto slash = o.complete_harness.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == o.complete_harness.size())
      throw Fatal("--complete-harness '" + o.complete_harness + "': expected NAME/VERSION");
    harness_name = o.complete_harness.substr(0, slash);
    harness_version = o.complete_harness.substr(slash + 1);
  }
  std::vector<scenario::ScenarioFile> files;
  for (const auto& path : o.files) {
    auto file = scenario::read_scenario_file(path);
    if (!file.ok()) throw Fatal(file.error().text());
    files.push_back(std::move(file.value()));
  }
  std::unique_ptr<schema::Ir> loaded_ir = o.load_schema(o.schema);
  const schema::Ir& ir = *loaded_ir;
  scenario::RequestCheck requests(ir);
  std::vector<scenario::ClientSpec> clients =
      scenario::pick_clients(o.client_config, named_clients, o.servers);
  std::vector<std::string> names;
  for (const auto& c : clients) names.push_back(c.name);
  const std::vector<std::string> client_names = names;  // what replay runs

  scenario::RunnerOptions runner_options;
  runner_options.work_dir = (fs::path(o.out) / "clients").string();
  runner_options.crosscheck_exe = running_executable();
  runner_options.batch_deadline = std::chrono::milliseconds(
      static_cast<long long>(parse_duration("--batch-deadline", o.batch_deadline) * 1000));
  runner_options.batch_size = o.batch_size;

  // The reference: canonical admission of requests (--servers) and the reference host (clients).
  auto loaded = canonical::CanonicalValidator::from_ir(ir);
  if (!loaded.ok()) throw Fatal("the schema does not load as canonical schemas: " + loaded.error().text());
  for (const char* document : {"intercept-request", "intercept-response"})
    if (!loaded.value().knows(document))
      throw Fatal(std::string("the schema has no ") + document + " document");
  std::optional<canonical::CanonicalValidator> reference;
  reference.emplace(std::move(loaded.value()));
  names.insert(names.begin(), core::kReferenceImplementation);

  prepare_out(o);
  run::RunConfig config;
  config.seed = "0";  // scenario rows are read, not generated
  config.implementations = join(names, ",");
  config.schema = o.schema;
  config.command = run::kScenariosCommand;
  run::write_run_config(o.out, config);
  run::FindingStore store((fs::path(o.out) / run::kFindingsDir).string());
  const auto started = std::chrono::steady_clock::now();

  report::ResultTable table(names);
  Tally tally;
  std::error_code ec;
  const std::string client_config =
      o.client_config.empty() ? "" : fs::absolute(o.client_config, ec).lexically_normal().string();
  const std::string schema_path =
      o.schema.empty() ? "" : fs::absolute(o.schema, ec).lexically_normal().string();
  for (auto& file : files) {
    scenario::FindingContext context{file.path, client_names, client_config, schema_path};
    std::vector<const scenario::Row*> runnable;
    std::map<std::string, std::string> skew;
    for (auto& row : file.rows) {
      ++tally.rows_total;
      auto problems = requests.check(row.request());
      if (!problems.empty() && !harness_name.empty()) {
        json::Value request = row.request();
        if (scenario::complete_harness(request, harness_name, harness_version)) {
          row.replace_request(request);
          ++tally.completed;
          problems = requests.check(row.request());
        }
      }
      if (problems.empty()) {
        runnable.push_back(&row);
        continue;
      }
      std::vector<std::string> texts;
      for (const auto& p : problems) texts.push_back(p.text());
      skew[row.id] = join(texts, "; ");
      ++tally.skewed;
    }
    tally.rows_run += runnable.size();
    if (o.servers) {
      admit(o, file, runnable, skew, clients, *reference, context, store, table, tally);
      continue;
    }
    std::map<std::string, std::map<std::string, scenario::RowResult>> results;
    for (const auto& c : clients) {
      scenario::ClientRunner runner(c, runner_options);
      results[c.name] = runner.run(runnable);
      for (const auto& note : runner.notes())
        std::cerr << "WARNING: client '" << c.name << "': " << note << "\n";
    }
    for (const scenario::Row* row : runnable)
      results[core::kReferenceImplementation][row->id] = scenario::reference_result(*reference, *row);
    std::string prefix = files.size() > 1 ? fs::path(file.path).filename().string() + ": " : "";
    for (const auto& row : file.rows) {
      if (auto s = skew.find(row.id); s != skew.end()) {
        table.add_row(prefix + row.id, std::vector<std::string>(names.size(), "skew"), "skew: " + s->second);
        continue;
      }
      scenario::ClientResults row_results;
      std::vector<std::string> cells;
      for (const auto& name : names) {
        const scenario::RowResult& r = results[name][row.id];
        row_results.emplace_back(name, &r);
        cells.push_back(cell(row, r));
        if (r.status == "crash" || r.status == "timeout" || r.status == "protocol") ++tally.broken;
      }
      auto differences = scenario::compare_row(row, row_results);
      std::string verdict =
          record(store, scenario::row_finding(row, differences, row_results, context), differences, tally);
      table.add_row(prefix + row.id, cells, verdict);
    }
  }
  table.print(std::cout);

  run::Summary& s = tally.summary;
  s.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  s.generated = tally.rows_total;
  s.sent = tally.rows_run;
  s.buckets = tally.buckets.size();
  s.findings = run::list_finding_files(store.dir()).size();
  s.by_layer.emplace(run::kContextualLayer, 0);  // the run's one layer, also when it found nothing
  s.strict = o.strict;
  s.roots = {o.servers ? "intercept_request" : "intercept_response"};
  for (const auto& n : names) {
    run::ImplementationRecord record;
    record.name = record.reported_name = n;
    s.implementations.push_back(std::move(record));
  }
  run::write_summary(o.out, s);

  std::size_t divergences = 0;
  for (const auto& [cls, n] : s.by_class) divergences += n;
  std::cout << tally.rows_total << " rows x " << clients.size()
            << (o.servers ? " servers and the reference: " : " clients and the reference: ")
            << s.divergent_inputs << " rows with findings, " << divergences << " divergences in " << s.buckets
            << " buckets";
  for (const auto& [cls, n] : s.by_class) std::cout << ", " << n << " " << cls;
  std::cout << "; " << tally.skewed << " skew (not run)";
  if (tally.broken) std::cout << "; " << tally.broken << " crash/timeout/protocol results";
  std::cout << "\n";
  if (tally.completed)
    std::cout << "completed params.event.harness as " << harness_name << "/" << harness_version << " in "
              << tally.completed << " rows (--complete-harness)\n";
  if (s.divergent_inputs) std::cout << "findings: " << store.dir() << "\n";
  // The verdict: decided in src/verdict, recorded as OUT/verdict.json (and, against a baseline,
  // OUT/baseline-check.json through its writer).
  if (known) return baseline::check_run_folder(*known, o.out, o.strict, std::cout);
  const verdict::Verdict v = baseline::judge_run_folder_without_baseline(o.out, o.strict, "scenarios run");
  std::cout << v.describe() << "\n";
  return v.exit_code();
}

}  // namespace crosscheck::scenario
