// command_selftest.cpp: `crosscheck selftest`, the seeded-fault suite and the false-alarm check
// (src/selftest, docs/selftest.md).
#include <ctime>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/command.hpp"
#include "cli/schema_option.hpp"
#include "exec/adapter_config.hpp"
#include "exec/adapter_pool.hpp"
#include "json/write.hpp"
#include "reduce/reduce_files.hpp"
#include "run/finding_file.hpp"
#include "selftest/selftest.hpp"
#include "util/duration.hpp"
#include "util/result.hpp"
#include "util/running_executable.hpp"

namespace crosscheck::cli {
namespace {

namespace fs = std::filesystem;

struct SelftestOptions {
  std::vector<std::string> faults;
  std::string time_per_fault = "60s";
  bool no_false_alarms = false;
  std::string time = "5m";
  std::string out;
  std::string json;
  std::uint64_t seed = 1;
  bool all_roots = false;
  bool strict = false;
  double deadline_s = 2;
  std::string python = "python3";
  std::string reference;
  std::string schema;
  std::string table;
  std::size_t batch = 32;
  std::string reduce_time = "60s";
  bool list = false;
  std::vector<std::string> layers;
  std::string client_config;
};

/// crosscheck-selftest/run-<UTC time>, with a suffix when that exists already.
std::string default_out() {
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::gmtime(&now));
  std::string base = std::string("crosscheck-selftest/run-") + stamp;
  std::string out = base;
  for (int i = 2; fs::exists(out); ++i) out = base + "-" + std::to_string(i);
  return out;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

int selftest_main(const SelftestOptions& o) {
  std::string table_path =
      o.table.empty() ? (fs::path(selftest::selftest_dir()) / "faults.json").string() : o.table;
  auto table = selftest::load_faults(table_path);
  if (!table.ok()) throw Fatal(table.error());
  if (o.list) {
    for (const auto& f : table.value()) {
      std::cout << f.name << "  [" << f.expected_class << ", " << f.layer << " layer]  " << f.area << ": "
                << f.description << "\n";
      if (f.layer == selftest::kContextualLayer) {
        std::cout << "    generated rows of " << [&] {
          std::string out;
          for (const auto& x : f.families) out += (out.empty() ? "" : ",") + x;
          return out;
        }() << "\n";
        continue;
      }
      std::cout << "    witness (" << f.witness_root << ", " << f.witness_payload.size()
                << " bytes): " << f.witness_payload << "\n";
    }
    return kExitClean;
  }
  selftest::Options s;
  s.faults = o.faults;
  if (s.faults.empty() && !o.no_false_alarms) s.faults = {"all"};
  s.seconds_per_fault = parse_duration("--time-per-fault", o.time_per_fault);
  s.no_false_alarms = o.no_false_alarms;
  s.false_alarm_seconds = parse_duration("--time", o.time);
  s.out = o.out.empty() ? default_out() : o.out;
  s.seed = o.seed;
  s.all_roots = o.all_roots;
  s.strict = o.strict;
  s.python = o.python;
  s.batch = o.batch;
  if (!o.layers.empty()) s.layers = o.layers;
  for (const auto& l : s.layers) {
    if (l != "structural" && l != "canonical" && l != "contextual")
      throw Fatal("--layers: '" + l + "' is not a layer (structural, canonical, contextual)");
  }
  {
    std::error_code ec;
    std::string self = running_executable();
    s.crosscheck_exe = self.empty() ? std::string("crosscheck") : self;
    s.schema_path = o.schema.empty() ? "" : fs::absolute(o.schema, ec).lexically_normal().string();
    s.client_config = o.client_config;
  }
  s.deadline = std::chrono::milliseconds(static_cast<long long>(o.deadline_s * 1000));
  if (o.reference.empty()) {
    std::string self = running_executable();
    s.reference = {self.empty() ? std::string("crosscheck") : self, "serve-adapter"};
    if (!o.schema.empty()) s.reference.insert(s.reference.end(), {"--schema", o.schema});
  } else {
    s.reference = split_words(o.reference);
  }
  auto ir = std::make_shared<const schema::Ir>(load_ir_or_fail(o.schema));
  exec::install_stop_handlers();
  std::cerr << "crosscheck selftest -> " << s.out << "\n";
  // The finding in the expected class is reduced for its own bucket on the same two implementations.
  double reduce_seconds = parse_duration("--reduce-time", o.reduce_time);
  selftest::Reducer reducer = [reduce_seconds](const std::string& file, const std::string& bucket,
                                               exec::ImplementationSet& set,
                                               const schema::Ir& ir) -> Result<std::size_t, std::string> {
    reduce::ReduceOptions ro;
    ro.oracle = &ir;
    ro.max_seconds = reduce_seconds;
    ro.should_stop = [] { return exec::stop_requested(); };
    auto reduced = reduce::reduce_finding_file(file, bucket, set, ro);
    if (!reduced.ok()) return reduced.error();
    if (!reduced.value().result.reproduced) return std::string("the finding did not reproduce in its bucket");
    return reduced.value().result.input.size();
  };
  selftest::Report report = selftest::run_selftest(ir, table.value(), s, reducer, std::cerr);
  selftest::print_report(report, s, std::cout);
  json::WriteOptions pretty;
  pretty.indent = 2;
  std::string json_text = json::write(selftest::report_to_json(report, s), pretty) + "\n";
  run::write_file_atomically((fs::path(s.out) / "selftest.json").string(), json_text);
  if (!o.json.empty()) run::write_file_atomically(o.json, json_text);
  if (report.interrupted) std::cerr << "interrupted: the results so far are in " << s.out << "\n";
  return report.exit_code();
}

const Registration kSelftest{CommandSpec{
    "selftest",
    "Seeded-fault suite and false-alarm check: fuzz faulty and equivalent adapters against the reference",
    "  crosscheck selftest                                   # every seeded fault, up to 60 s each\n"
    "  crosscheck selftest --faults unknown-enum-error,crash-on-empty-array --time-per-fault 20s\n"
    "  crosscheck selftest --no-false-alarms --time 5m        # the equivalent adapter must give no finding\n"
    "  crosscheck selftest --faults all --no-false-alarms --json selftest.json\n"
    "  crosscheck selftest --list                            # the faults, their classes and witnesses",
    [](CLI::App& sub) {
      auto o = std::make_shared<SelftestOptions>();
      sub.add_option("--faults", o->faults, "Faults to run, comma-separated, or all (default: all)")
          ->delimiter(',');
      sub.add_option("--time-per-fault", o->time_per_fault, "Fuzzing time limit per fault")
          ->capture_default_str();
      sub.add_flag("--no-false-alarms", o->no_false_alarms,
                   "Run the equivalent adapter (contract-allowed differences only): it must give no finding");
      sub.add_option("--time", o->time, "Fuzzing time of the false-alarm check")->capture_default_str();
      sub.add_option("--out", o->out,
                     "Output folder, new or empty (default: crosscheck-selftest/run-<time>)");
      sub.add_option("--json", o->json, "Also write the report (crosscheck-selftest/1) to this file");
      sub.add_option("--seed", o->seed, "Campaign seed")->capture_default_str();
      sub.add_flag("--all-roots", o->all_roots,
                   "Fuzz every root for each fault, not only its witness's root");
      sub.add_flag("--strict", o->strict,
                   "Implementation-defined findings of the equivalent adapter count too");
      sub.add_option("--deadline", o->deadline_s, "Seconds an adapter may take for one request")
          ->check(CLI::PositiveNumber)
          ->capture_default_str();
      sub.add_option("--python", o->python, "Python interpreter for the self-test adapters")
          ->capture_default_str();
      sub.add_option("--reference", o->reference,
                     "Adapter behind the proxies (default: this crosscheck's serve-adapter)");
      sub.add_option("--schema", o->schema, "Schema folder or SDK bundle (default: the installed one)");
      sub.add_option("--batch", o->batch, "Requests per adapter batch")
          ->check(CLI::Range(1, 100000))
          ->capture_default_str();
      sub.add_option("--reduce-time", o->reduce_time, "Time limit of the reduction of each fault's finding")
          ->capture_default_str();
      sub.add_option("--faults-table", o->table, "Faults table (default: selftest/faults.json)");
      sub.add_option("--layers", o->layers,
                     "Layers whose faults 'all' selects and whose false-alarm checks run: structural, "
                     "canonical, contextual (default: all three)")
          ->delimiter(',');
      sub.add_option("--client-config", o->client_config,
                     "Client configuration whose python client the layer-3 stand-ins wrap (default: "
                     "adapters/clients.json)");
      sub.add_flag("--list", o->list, "List the faults, their expected classes and witnesses, and exit");
      return [o] { return selftest_main(*o); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
