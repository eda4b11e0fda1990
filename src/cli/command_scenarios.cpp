// command_scenarios.cpp: `crosscheck scenarios run FILE...`, layer 3 through the SDKs' own interop
// clients with crosscheck as the scripted server (docs/scenarios.md).
//
// Each file's rows are checked against the snapshot (skew: reported, not run), run on every selected
// client in batches (src/scenario/client_runner.hpp) and on the reference host in process (src/host,
// implementation "cpp", first column: blame follows it), and each row's results are compared
// (src/scenario/verdict.hpp); every difference is written as a finding the moment the row is
// settled. Exit: 0 nothing differs, 1 a difference or a crash / timeout / protocol result, 2 bad
// input, 3 a client that cannot start.
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "canonical/canonical_validator.hpp"
#include "cli/command.hpp"
#include "cli/command_scenarios_generate.hpp"
#include "cli/duration.hpp"
#include "cli/result_table.hpp"
#include "cli/schema_option.hpp"
#include "differential/impl_result.hpp"
#include "host/host.hpp"
#include "scenario/client_config.hpp"
#include "scenario/client_runner.hpp"
#include "scenario/finding_writer.hpp"
#include "scenario/scenario_file.hpp"
#include "scenario/server_admission.hpp"
#include "scenario/skew.hpp"
#include "scenario/verdict.hpp"

namespace crosscheck::cli {
namespace {

namespace fs = std::filesystem;

struct Options {
  std::vector<std::string> files;
  std::string clients_text;  ///< --clients a,b
  std::vector<std::string> clients;
  std::string client_config;
  std::string out = "crosscheck-out/scenarios";
  std::string schema;
  std::string complete_harness;
  std::size_t batch_size = 0;
  std::string batch_deadline = "300s";
  bool servers = false;
  std::string request_deadline = "10s";
};

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

// The reference host (src/host) on one row, as a result of the same shape a client reports: its own
// status is whether it meets the row, and a response the synthetic host refuses after SDK acceptance
// carries sdkAccepted / hostAccepted / rejectionLayer in its report row, as the clients write them.
scenario::RowResult reference_result(const canonical::CanonicalValidator& validator,
                                     const scenario::Row& row) {
  scenario::RowResult r;
  host::Applied a = host::apply(validator, row.request(), row.response());
  if (a.rule == host::kRequestCanonical) {
    r.status = "inapplicable";
    r.error = a.message;
    return r;
  }
  r.actual = a.result;
  r.error = a.accepted ? a.message : a.rule + ": " + a.message;
  r.report_row = json::Value::object();
  r.report_row.add("id", json::Value::string(row.id));
  r.status = "passed";
  r.report_row.add("status", json::Value::string(r.status));
  r.report_row.add("actual", a.result);
  if (!a.host_accepted) {
    r.report_row.add("sdkAccepted", json::Value::boolean(true));
    r.report_row.add("hostAccepted", json::Value::boolean(false));
    r.report_row.add("rejectionLayer", json::Value::string("host-input-schema"));
  }
  if (!a.rule.empty()) r.notes.push_back("reference rule " + a.rule);
  if (!scenario::check_expectation(row, r).met) {
    r.status = "failed";
    *r.report_row.find("status") = json::Value::string(r.status);
  }
  return r;
}

std::vector<scenario::ClientSpec> pick_clients(const Options& o) {
  std::string path = o.client_config.empty() ? scenario::default_client_config_path() : o.client_config;
  auto all = scenario::load_client_config(path, CROSSCHECK_SOURCE_DIR);
  if (!all.ok()) throw Fatal(all.error());
  auto selected = scenario::select_clients(all.value(), o.clients);
  if (!selected.ok()) throw Fatal(selected.error());
  std::vector<scenario::ClientSpec> out;
  for (auto& c : selected.value()) {
    if (o.servers && !c.unavailable && c.server_argv.empty())
      c.unavailable = "it names no server command (serverArgv, or the adapterJson's server)";
    if (c.unavailable) {
      if (!o.clients.empty())
        throw Fatal("client '" + c.name + "' is unavailable: " + *c.unavailable, kExitAdapter);
      std::cerr << "WARNING: client '" << c.name << "' is unavailable: " << *c.unavailable << "\n";
      continue;
    }
    out.push_back(std::move(c));
  }
  if (out.empty()) throw Fatal("no client is available (see crosscheck scenarios run --help)", kExitAdapter);
  return out;
}

struct Tally {
  std::size_t rows_total = 0, skewed = 0, completed = 0, findings = 0, broken = 0;
  std::size_t implementation_defined = 0;  ///< written, listed apart, never failing the run
  std::map<std::string, std::size_t> by_class;
};

// --servers: each runnable row's request to every SDK's interop server and to the reference.
void admit(const Options& o, const scenario::ScenarioFile& file,
           const std::vector<const scenario::Row*>& runnable, const std::map<std::string, std::string>& skew,
           const std::vector<scenario::ClientSpec>& sdks, const canonical::CanonicalValidator& reference,
           ResultTable& table, Tally& tally) {
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
  std::vector<std::string> names;
  for (const auto& c : sdks) {
    scenario::AdmissionRunner runner(c, options);
    answers[c.name] = runner.run(runnable, reference_admits);
    names.push_back(c.name);
  }
  std::string prefix = o.files.size() > 1 ? fs::path(file.path).filename().string() + ": " : "";
  for (const auto& row : file.rows) {
    if (auto sk = skew.find(row.id); sk != skew.end()) {
      table.add_row(prefix + row.id, std::vector<std::string>(sdks.size() + 1, "skew"),
                    "skew: " + sk->second);
      continue;
    }
    const scenario::Admission& ref = reference_answers[row.id];
    scenario::AdmissionResults results{{differential::kReferenceImplementation, &ref}};
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
    std::vector<std::string> verdicts;
    for (const auto& d : scenario::compare_admission(row, results)) {
      scenario::write_admission_finding(o.out, row, d, results, {file.path, names});
      verdicts.push_back(d.cls + ": " + d.summary);
      if (d.implementation_defined.empty()) {
        ++tally.findings;
        ++tally.by_class[d.cls];
      } else {
        ++tally.implementation_defined;
      }
    }
    table.add_row(prefix + row.id, cells, verdicts.empty() ? "ok" : join(verdicts, "; "));
  }
}

int run(Options& o) {
  for (std::size_t start = 0; start < o.clients_text.size();) {
    std::size_t comma = std::min(o.clients_text.find(',', start), o.clients_text.size());
    // The reference always runs; naming it among the clients is allowed and changes nothing.
    std::string name = o.clients_text.substr(start, comma - start);
    if (comma > start && name != differential::kReferenceImplementation) o.clients.push_back(name);
    start = comma + 1;
  }
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
  schema::Ir ir = load_ir_or_fail(o.schema);
  scenario::RequestCheck requests(ir);
  std::vector<scenario::ClientSpec> clients = pick_clients(o);
  std::vector<std::string> names;
  for (const auto& c : clients) names.push_back(c.name);
  const std::vector<std::string> client_names = names;  // the replay command's --clients

  scenario::RunnerOptions runner_options;
  runner_options.work_dir = (fs::path(o.out) / "clients").string();
  runner_options.crosscheck_exe = fs::read_symlink("/proc/self/exe").string();
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
  names.insert(names.begin(), differential::kReferenceImplementation);
  ResultTable table(names);
  Tally tally;
  auto& [rows_total, skewed, completed, findings, broken, implementation_defined, by_class] = tally;
  for (auto& file : files) {
    std::vector<const scenario::Row*> runnable;
    std::map<std::string, std::string> skew;
    for (auto& row : file.rows) {
      ++rows_total;
      auto problems = requests.check(row.request());
      if (!problems.empty() && !harness_name.empty()) {
        json::Value request = row.request();
        if (scenario::complete_harness(request, harness_name, harness_version)) {
          row.replace_request(request);
          ++completed;
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
      ++skewed;
    }
    if (o.servers) {
      admit(o, file, runnable, skew, clients, *reference, table, tally);
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
      results[differential::kReferenceImplementation][row->id] = reference_result(*reference, *row);
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
        if (r.status == "crash" || r.status == "timeout" || r.status == "protocol") ++broken;
      }
      std::vector<std::string> verdicts;
      for (const auto& d : scenario::compare_row(row, row_results)) {
        std::string path = scenario::write_finding(o.out, row, d, row_results, {file.path, client_names});
        verdicts.push_back(d.cls + ": " + d.summary);
        ++findings;
        ++by_class[d.cls];
        (void)path;
      }
      table.add_row(prefix + row.id, cells, verdicts.empty() ? "ok" : join(verdicts, "; "));
    }
  }
  table.print(std::cout);
  std::cout << rows_total << " rows x " << clients.size()
            << (o.servers ? " servers and the reference: " : " clients and the reference: ") << findings
            << " findings";
  for (const auto& [cls, n] : by_class) std::cout << ", " << n << " " << cls;
  if (implementation_defined)
    std::cout << ", " << implementation_defined << " implementation-defined (not failing)";
  std::cout << "; " << skewed << " skew (not run)";
  if (broken) std::cout << "; " << broken << " crash/timeout/protocol results";
  std::cout << "\n";
  if (completed)
    std::cout << "completed params.event.harness as " << harness_name << "/" << harness_version << " in "
              << completed << " rows (--complete-harness)\n";
  if (findings || implementation_defined)
    std::cout << "findings: " << (fs::path(o.out) / "findings").string() << "\n";
  return findings || broken ? kExitDivergence : kExitClean;
}

const Registration kScenarios{CommandSpec{
    "scenarios",
    "Layer 3: run scenario files through each SDK's interop client, crosscheck as the scripted server",
    "  crosscheck scenarios run tests/data/scenarios/composition.json\n"
    "  crosscheck scenarios run --clients python,rust --out out/l3 a.json b.json\n"
    "  crosscheck scenarios run --complete-harness crosscheck/0.1.0 old-snapshot.json\n"
    "  crosscheck scenarios run --servers --clients python,rust tests/data/scenarios/admission.json",
    [](CLI::App& sub) {
      auto o = std::make_shared<Options>();
      sub.require_subcommand(1);
      CLI::App* run_cmd = sub.add_subcommand("run", "Run scenario files on the clients and compare them");
      run_cmd->add_option("files", o->files, "Scenario files (schemas/scenario-file.schema.json)")
          ->required();
      // One value split here: a vector option would also swallow the positional files after it.
      run_cmd->add_option("--clients", o->clients_text,
                          "SDK clients to run, comma-separated (default: every available one); the reference "
                          "host (cpp) always runs first");
      run_cmd->add_option("--client-config", o->client_config,
                          "Client configuration (default adapters/clients.json)");
      run_cmd->add_option("--out", o->out, "Output folder: findings/ and the clients' batch folders");
      run_cmd->add_option("--schema", o->schema,
                          "The implementations' schema snapshot (default: set-up's bundle)");
      run_cmd->add_option(
          "--complete-harness", o->complete_harness,
          "NAME/VERSION: add params.event.harness to requests that lack it (older snapshots)");
      run_cmd->add_option("--batch-size", o->batch_size, "Rows per client run (default: the whole file)");
      run_cmd->add_option("--batch-deadline", o->batch_deadline, "Deadline of one client run (default 300s)");
      run_cmd->add_flag("--servers", o->servers,
                        "Request admission: send each row's request to each SDK's interop server instead "
                        "(crosscheck as the client), and compare admitted vs refused with the reference");
      run_cmd->add_option("--request-deadline", o->request_deadline,
                          "--servers: deadline of one request (default 10s)");
      ScenariosVerb generate = add_scenarios_generate(sub);  // command_scenarios_generate.cpp
      return [o, generate] { return generate.app->parsed() ? generate.action() : run(*o); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
