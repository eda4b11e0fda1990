// selftest.cpp: seeded-fault campaigns, the false-alarm campaign, the report (see selftest.hpp).
#include "selftest/selftest.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "campaign/campaign.hpp"
#include "differential/adapter_pool.hpp"
#include "differential/implementation_set.hpp"
#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "util/file.hpp"

namespace crosscheck::selftest {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr double kGoalSeconds = 60;  // issue #6: every fault found within 60 s on a 2-core machine
constexpr const char* kFaulty = "faulty";
constexpr const char* kEquivalent = "equivalent";

json::Value num(double x) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(3) << x;
  return json::Value::number(s.str());
}
json::Value num(std::uint64_t x) { return json::Value::number(std::to_string(x)); }
json::Value str(const std::string& s) { return json::Value::string(s); }
json::Value opt_bool(const std::optional<bool>& b) {
  return b ? json::Value::boolean(*b) : json::Value::null();
}

/// argv[0] resolved the way the adapter pool will resolve it, or an empty string.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
  }
  return "";
}

bool involves(const differential::Divergence& d, const std::string& impl) {
  return std::find(d.implementations.begin(), d.implementations.end(), impl) != d.implementations.end();
}

std::string fmt_seconds(double s) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(s < 10 ? 1 : 0) << s << " s";
  return o.str();
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

/// Follows a campaign's findings as it writes them (CampaignOptions::on_finding): every finding
/// that involves `impl`, in the order the campaign wrote them, timed by the run's clock.
class FindingWatch {
 public:
  FindingWatch(std::string impl, const Fault* fault) : impl_(std::move(impl)), fault_(fault) {}

  /// Takes one written finding; returns true once a finding in the fault's expected class (and
  /// label) is seen. Called on the campaign's sender thread; the fields below are read once the
  /// campaign has returned.
  bool take(const campaign::WrittenFinding& w) {
    if (!handled_.insert(w.file).second) return expected_found();
    std::set<std::string> classes;
    bool contract = false, any = false;
    for (const auto& d : w.finding.divergences) {
      if (!involves(d, impl_)) continue;
      any = true;
      classes.insert(differential::class_name(d.cls));
      if (!d.implementation_defined) {
        contract = true;
        if (contract_details.size() < 20) contract_details.push_back(d.detail);
      }
      if (fault_ && !expected_seconds && fault_->expected_class == differential::class_name(d.cls) &&
          d.implementation_defined == fault_->implementation_defined) {
        expected_seconds = w.seconds;
        expected_file = w.file;
        expected_bucket = d.bucket;
        expected_label = d.implementation_defined;
        expected_bytes = w.finding.input.size();
      }
    }
    if (any) {
      if (contract) {
        ++contract_findings;
        contract_files.push_back(w.file);
      } else {
        ++implementation_defined_findings;
      }
      if (!first_seconds) {
        first_seconds = w.seconds;
        first_classes.assign(classes.begin(), classes.end());
      }
    }
    return expected_found();
  }

  bool expected_found() const { return expected_seconds.has_value(); }

  std::optional<double> first_seconds, expected_seconds;
  std::vector<std::string> first_classes;
  std::string expected_file, expected_bucket;
  std::optional<bool> expected_label;
  std::size_t expected_bytes = 0;
  std::size_t contract_findings = 0, implementation_defined_findings = 0;
  std::vector<std::string> contract_files, contract_details;

 private:
  std::string impl_;
  const Fault* fault_;
  std::set<std::string> handled_;  // a finding file rewritten for a new bucket is one finding
};

/// Runs the campaign `c` (its log in `log_path`) while `watch` follows its findings; `stop_at_expected` ends
/// it at the first finding in the fault's expected class.
campaign::CampaignSummary watched_campaign(const schema::Ir& ir, differential::ImplementationSet& set,
                                           campaign::CampaignOptions c, FindingWatch& watch,
                                           bool stop_at_expected, const std::string& log_path) {
  std::atomic<bool> found{false};
  c.on_finding = [&](const campaign::WrittenFinding& w) {
    if (watch.take(w) && stop_at_expected) found = true;
  };
  // The campaign stops generating at its time limit but would then send what is queued; the
  // self-test wants the limit to hold, so the send loop is stopped then too.
  auto limit = Clock::now() + std::chrono::milliseconds(static_cast<long long>(c.seconds.value_or(0) * 1000));
  bool limited = c.seconds.has_value();
  c.stop_when = [&found, limit, limited] {
    return found.load(std::memory_order_relaxed) || (limited && Clock::now() >= limit);
  };
  std::ofstream log(log_path);
  return campaign::run_campaign(ir, set, c, log);
}

differential::AdapterConfig proxy_config(const std::string& name, const std::vector<std::string>& argv) {
  differential::AdapterConfig a;
  a.spec.name = name;
  a.spec.argv = argv;
  return a;
}

differential::PoolOptions pool_options(const Options& o) {
  differential::PoolOptions pool;
  pool.processes = 1;
  pool.deadline = o.deadline;
  pool.hello_deadline = std::chrono::milliseconds(30000);
  return pool;
}

/// The interpreter behind `python` (a pyenv shim costs half a second per start, and the pool starts
/// the adapter again after every crash or hang), or `python` itself when it cannot say.
std::string resolve_python(const std::string& python) {
  std::string program = find_program(python);
  if (program.empty()) return python;
  std::string command = "'" + program + "' -c 'import sys; sys.stdout.write(sys.executable)' 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return python;
  char buffer[4096];
  std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, pipe);
  int status = ::pclose(pipe);
  std::string real(buffer, n);
  return status == 0 && !real.empty() && real.find('\'') == std::string::npos && !find_program(real).empty()
             ? real
             : python;
}

/// Why the adapters of the self-test cannot start here, or "".
std::string missing_part(const Options& o) {
  if (find_program(o.python).empty())
    return o.python + " not found (" +
           (o.python.find('/') == std::string::npos ? "on PATH" : "not executable") +
           "): the self-test adapters are Python programs";
  for (const char* f : {"faulty_adapter.py", "equivalent_adapter.py", "proxy.py"}) {
    if (!fs::exists(fs::path(selftest_dir()) / f))
      return (fs::path(selftest_dir()) / f).string() +
             " is missing (the self-test adapters ship in selftest/)";
  }
  if (o.reference.empty()) return "no reference adapter command";
  if (find_program(o.reference.front()).empty())
    return "the reference adapter " + o.reference.front() + " is not an executable program";
  return "";
}

void prepare_out(const std::string& out) {
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_empty(out, ec))
    throw Fatal("--out " + out + ": the folder exists and is not empty; the self-test writes a fresh one");
  fs::create_directories(out, ec);
  if (ec) throw Fatal("--out " + out + ": cannot create the folder: " + ec.message());
}

FaultReport run_fault(std::shared_ptr<const schema::Ir> ir, const Fault& fault, const Options& o,
                      const Reducer& reducer, std::ostream& log) {
  FaultReport r;
  r.fault = fault;
  r.folder = (fs::path(o.out) / fault.name).string();
  auto started = Clock::now();
  std::vector<std::string> argv = {o.python, (fs::path(selftest_dir()) / "faulty_adapter.py").string(),
                                   "--fault", fault.name, "--"};
  argv.insert(argv.end(), o.reference.begin(), o.reference.end());
  std::vector<differential::AdapterConfig> adapters = {proxy_config("cpp", {}), proxy_config(kFaulty, argv)};
  differential::ImplementationSet set(ir, adapters, pool_options(o));
  for (const auto& f : set.failures()) {
    if (f.adapter == kFaulty) {
      r.status = Status::kSkipped;
      r.note = "the faulty adapter could not start: " + f.message;
      return r;
    }
  }
  // Is the fault real? Its hand-minimal witness must diverge in the expected class.
  auto results = set.run({{fault.witness_root, fault.witness_payload}});
  std::set<std::string> classes;
  bool witness_ok = false;
  for (const auto& d : results.front().divergences) {
    if (!involves(d, kFaulty)) continue;
    classes.insert(differential::class_name(d.cls));
    witness_ok = witness_ok || (differential::class_name(d.cls) == fault.expected_class &&
                                d.implementation_defined == fault.implementation_defined);
  }
  r.witness_detected = witness_ok;
  r.witness_classes.assign(classes.begin(), classes.end());
  if (differential::stop_requested()) {
    r.status = Status::kSkipped;
    r.note = "interrupted";
    return r;
  }

  campaign::CampaignOptions c;
  c.seconds = o.seconds_per_fault;
  c.seed = o.seed;
  c.out = r.folder;
  if (!o.all_roots) c.roots = {fault.witness_root};
  c.batch = o.batch;
  c.adapters_fingerprint = join(set.names(), ",");
  FindingWatch watch(kFaulty, &fault);
  auto summary = watched_campaign(*ir, set, c, watch, true, r.folder + ".log");
  r.generated = summary.generated;
  r.sent = summary.sent;
  r.first_seconds = watch.first_seconds;
  r.first_classes = watch.first_classes;
  r.expected_seconds = watch.expected_seconds;
  r.expected_file = watch.expected_file;
  r.expected_label = watch.expected_label;
  r.found_bytes = watch.expected_bytes;

  if (r.expected_seconds) {
    if (reducer) {
      auto reduced = reducer(r.expected_file, watch.expected_bucket, set);
      if (reduced.ok())
        r.reduced_bytes = reduced.value();
      else
        r.reduce_note = reduced.error();
    } else {
      r.reduce_note = "no reducer in this build";
    }
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - started).count();

  r.goal_time = r.expected_seconds && *r.expected_seconds <= kGoalSeconds;
  if (r.first_seconds) {
    r.goal_class = std::find(r.first_classes.begin(), r.first_classes.end(), fault.expected_class) !=
                   r.first_classes.end();
  }
  if (r.reduced_bytes && !fault.witness_payload.empty()) {
    r.goal_size = static_cast<double>(*r.reduced_bytes) <=
                  o.size_goal * static_cast<double>(fault.witness_payload.size());
  }
  bool passed =
      witness_ok && r.goal_time.value_or(false) && r.goal_class.value_or(false) && r.goal_size.value_or(true);
  r.status = passed ? Status::kPassed : Status::kFailed;
  if (!witness_ok) {
    r.note = "the hand-minimal witness does not diverge in " + fault.expected_class;
  } else if (!r.first_seconds) {
    r.note = "not found in " + fmt_seconds(o.seconds_per_fault);
  } else if (!r.expected_seconds) {
    r.note = "found only as " + join(r.first_classes, ",");
  } else if (!r.goal_time.value_or(false)) {
    r.note = "found after the 60 s goal";
  } else if (!r.goal_class.value_or(false)) {
    r.note = "first put in " + join(r.first_classes, ",");
  } else if (r.goal_size && !*r.goal_size) {
    r.note =
        "witness larger than " + std::to_string(static_cast<int>(o.size_goal)) + "x the hand-minimal one";
  }
  if (differential::stop_requested()) {
    r.status = Status::kSkipped;
    r.note = "interrupted";
  }
  log << "  " << fault.name << ": " << status_name(r.status)
      << (r.expected_seconds ? " found in " + fmt_seconds(*r.expected_seconds) : std::string(" not found"))
      << (r.note.empty() ? "" : " (" + r.note + ")") << "\n";
  return r;
}

FalseAlarmReport run_false_alarms(std::shared_ptr<const schema::Ir> ir, const Options& o, std::ostream& log) {
  FalseAlarmReport r;
  r.folder = (fs::path(o.out) / kEquivalent).string();
  auto started = Clock::now();
  std::vector<std::string> argv = {o.python, (fs::path(selftest_dir()) / "equivalent_adapter.py").string(),
                                   "--"};
  argv.insert(argv.end(), o.reference.begin(), o.reference.end());
  differential::ImplementationSet set(ir, {proxy_config("cpp", {}), proxy_config(kEquivalent, argv)},
                                      pool_options(o));
  for (const auto& f : set.failures()) {
    if (f.adapter == kEquivalent) {
      r.note = "the equivalent adapter could not start: " + f.message;
      return r;
    }
  }
  campaign::CampaignOptions c;
  c.seconds = o.false_alarm_seconds;
  c.seed = o.seed;
  c.out = r.folder;
  c.batch = o.batch;
  c.strict = o.strict;
  c.adapters_fingerprint = join(set.names(), ",");
  FindingWatch watch(kEquivalent, nullptr);
  auto summary = watched_campaign(*ir, set, c, watch, false, r.folder + ".log");
  r.generated = summary.generated;
  r.sent = summary.sent;
  r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  r.contract_findings = watch.contract_findings;
  r.implementation_defined_findings = watch.implementation_defined_findings;
  r.contract_files = watch.contract_files;
  r.contract_details = watch.contract_details;
  bool clean = r.contract_findings == 0 && (!o.strict || r.implementation_defined_findings == 0);
  r.status = clean ? Status::kPassed : Status::kFailed;
  if (!clean) {
    r.note = std::to_string(r.contract_findings) + " contract finding(s)" +
             (o.strict ? ", " + std::to_string(r.implementation_defined_findings) + " implementation-defined"
                       : "") +
             " against an adapter the contract cannot tell from the reference: a harness bug";
  }
  if (differential::stop_requested()) {
    r.status = Status::kSkipped;
    r.note = "interrupted";
  }
  log << "  equivalent: " << status_name(r.status) << ", " << r.contract_findings << " contract and "
      << r.implementation_defined_findings << " implementation-defined findings in " << fmt_seconds(r.seconds)
      << "\n";
  return r;
}

}  // namespace

const char* status_name(Status s) {
  switch (s) {
    case Status::kPassed:
      return "PASS";
    case Status::kFailed:
      return "FAIL";
    case Status::kSkipped:
      return "SKIP";
  }
  return "?";
}

std::string selftest_dir() { return (fs::path(differential::repository_root()) / "selftest").string(); }

Result<std::vector<Fault>, std::string> load_faults(const std::string& path) {
  auto text = read_file_bytes(path);
  if (!text) return path + ": cannot be read";
  auto parsed = json::parse(*text);
  if (!parsed.ok()) return path + ": not JSON: " + parsed.error().message();
  // The shipped schema is the definition of the table: every field typed, none unknown.
  if (auto bad = json::shipped_schema("selftest-faults.schema.json").validate(parsed.value())) {
    return path + ": at " + (bad->pointer.empty() ? std::string("\"\"") : bad->pointer) + " (" +
           json::describe_location(parsed.value(), bad->pointer) + "): " + bad->message +
           " (schemas/selftest-faults.schema.json)";
  }
  const json::Value* list = parsed.value().find("faults");
  std::vector<Fault> out;
  std::set<std::string> names;
  for (std::size_t i = 0; i < list->items().size(); ++i) {
    const json::Value& e = list->items()[i];
    std::string where = path + ": /faults/" + std::to_string(i);
    auto text_field = [&](const json::Value& o, const char* key,
                          std::string& into) -> std::optional<std::string> {
      const json::Value* v = o.is_object() ? o.find(key) : nullptr;
      if (!v || !v->is_string()) return where + ": field '" + key + "': expected a string";
      into = v->string_value();
      return std::nullopt;
    };
    Fault f;
    for (auto [key, into] : {std::pair<const char*, std::string*>{"name", &f.name},
                             {"area", &f.area},
                             {"description", &f.description},
                             {"expectedClass", &f.expected_class}}) {
      if (auto err = text_field(e, key, *into)) return *err;
    }
    if (!differential::parse_class(f.expected_class))
      return where + ": field 'expectedClass': '" + f.expected_class + "' is not a divergence class";
    if (const json::Value* d = e.find("implementationDefined")) {
      if (!d->is_bool()) return where + ": field 'implementationDefined': expected true or false";
      f.implementation_defined = d->as_bool();
    }
    if (const json::Value* a = e.find("aliases")) {
      if (!a->is_array()) return where + ": field 'aliases': expected an array of strings";
      for (const auto& x : a->items()) {
        if (!x.is_string()) return where + ": field 'aliases': expected an array of strings";
        f.aliases.push_back(x.string_value());
      }
    }
    const json::Value* w = e.find("witness");
    if (!w || !w->is_object()) return where + ": field 'witness': expected {\"root\", \"payload\"}";
    where += "/witness";
    if (auto err = text_field(*w, "root", f.witness_root)) return *err;
    if (auto err = text_field(*w, "payload", f.witness_payload)) return *err;
    if (!names.insert(f.name).second) return where + ": the fault name '" + f.name + "' is used twice";
    out.push_back(std::move(f));
  }
  return out;
}

int Report::exit_code() const {
  bool failed = false, skipped = interrupted;
  for (const auto& f : faults) {
    failed = failed || f.status == Status::kFailed;
    skipped = skipped || f.status == Status::kSkipped;
  }
  if (false_alarms) {
    failed = failed || false_alarms->status == Status::kFailed;
    skipped = skipped || false_alarms->status == Status::kSkipped;
  }
  if (failed) return kExitDivergence;
  return skipped ? kExitAdapter : kExitClean;
}

Report run_selftest(std::shared_ptr<const schema::Ir> ir, const std::vector<Fault>& table,
                    const Options& options, const Reducer& reducer, std::ostream& log) {
  Options o = options;
  o.python = resolve_python(options.python);
  std::vector<const Fault*> selected;
  for (const auto& name : o.faults) {
    if (name == "all") {
      for (const auto& f : table) selected.push_back(&f);
      continue;
    }
    auto it = std::find_if(table.begin(), table.end(), [&](const Fault& f) {
      return f.name == name || std::find(f.aliases.begin(), f.aliases.end(), name) != f.aliases.end();
    });
    if (it == table.end()) {
      std::vector<std::string> known;
      for (const auto& f : table) known.push_back(f.name);
      throw Fatal("--faults: no fault named '" + name + "' (known: " + join(known, ", ") + ", or all)");
    }
    selected.push_back(&*it);
  }
  // Pointers into the table: sorted is the table's order, and "all,x" does not run x twice.
  std::sort(selected.begin(), selected.end());
  selected.erase(std::unique(selected.begin(), selected.end()), selected.end());
  for (const Fault* f : selected) {
    if (!ir->find_root(f->witness_root))
      throw Fatal("fault " + f->name + ": its witness root '" + f->witness_root +
                  "' is not a root of the schema");
  }
  prepare_out(o.out);

  Report report;
  std::string missing = missing_part(o);
  if (!missing.empty()) {
    log << "cannot run the self-test adapters: " << missing << "\n";
    std::vector<std::string> names;
    for (const Fault* f : selected) {
      FaultReport r;
      r.fault = *f;
      r.status = Status::kSkipped;
      r.note = missing;
      report.faults.push_back(std::move(r));
      names.push_back(f->name);
    }
    if (!names.empty()) log << "skipped faults: " << join(names, ", ") << "\n";
    if (o.no_false_alarms) {
      report.false_alarms = FalseAlarmReport{};
      report.false_alarms->note = missing;
      log << "skipped: the false-alarm check\n";
    }
    return report;
  }

  std::size_t n = 0;
  for (const Fault* f : selected) {
    if (differential::stop_requested()) {
      report.interrupted = true;
      FaultReport r;
      r.fault = *f;
      r.note = "interrupted";
      report.faults.push_back(std::move(r));
      continue;
    }
    log << "[" << ++n << "/" << selected.size() << "] " << f->name << " (expected " << f->expected_class
        << ", root " << (o.all_roots ? std::string("all") : f->witness_root) << ", up to "
        << fmt_seconds(o.seconds_per_fault) << ")\n";
    report.faults.push_back(run_fault(ir, *f, o, reducer, log));
  }
  if (o.no_false_alarms) {
    if (differential::stop_requested()) {
      report.interrupted = true;
      report.false_alarms = FalseAlarmReport{};
      report.false_alarms->note = "interrupted";
    } else {
      log << "[no false alarms] equivalent adapter, every root, " << fmt_seconds(o.false_alarm_seconds)
          << "\n";
      report.false_alarms = run_false_alarms(ir, o, log);
    }
  }
  report.interrupted = report.interrupted || differential::stop_requested();
  return report;
}

void print_report(const Report& report, const Options& o, std::ostream& out) {
  if (!report.faults.empty()) {
    out << "\nseeded faults (goals: found within " << static_cast<int>(kGoalSeconds)
        << " s, first put in the expected class, minimized witness <= " << o.size_goal
        << "x the hand-minimal one)\n";
    out << std::left << std::setw(30) << "fault" << std::setw(17) << "expected" << std::setw(9) << "witness"
        << std::setw(10) << "found" << std::setw(26) << "first class" << std::setw(22) << "bytes min/hand"
        << std::setw(16) << "goals t/c/s"
        << "result\n";
    for (const auto& r : report.faults) {
      auto goal = [](const std::optional<bool>& g) { return g ? (*g ? "yes" : "NO") : "-"; };
      std::string witness = r.witness_detected ? (*r.witness_detected ? "ok" : "MISSED") : "-";
      std::string found = r.expected_seconds             ? fmt_seconds(*r.expected_seconds)
                          : r.status == Status::kSkipped ? "-"
                                                         : "no";
      std::string cls = r.first_classes.empty() ? "-" : join(r.first_classes, ",");
      if (r.goal_class) cls += *r.goal_class ? " (right)" : " (WRONG)";
      std::string bytes = r.reduced_bytes ? std::to_string(*r.reduced_bytes) + "/" +
                                                std::to_string(r.fault.witness_payload.size())
                          : r.expected_seconds ? "unreduced " + std::to_string(r.found_bytes) + "/" +
                                                     std::to_string(r.fault.witness_payload.size())
                                               : "-";
      std::string goals = std::string(goal(r.goal_time)) + "/" + goal(r.goal_class) + "/" + goal(r.goal_size);
      out << std::left << std::setw(30) << r.fault.name << std::setw(17) << r.fault.expected_class
          << std::setw(9) << witness << std::setw(10) << found << std::setw(26) << cls << std::setw(22)
          << bytes << std::setw(16) << goals << status_name(r.status) << (r.note.empty() ? "" : ": " + r.note)
          << "\n";
    }
  }
  if (report.false_alarms) {
    const auto& f = *report.false_alarms;
    out << "\nno false alarms (equivalent adapter, every root, " << fmt_seconds(o.false_alarm_seconds)
        << "): " << status_name(f.status);
    if (f.status != Status::kSkipped) {
      out << ", " << f.contract_findings << " contract findings, " << f.implementation_defined_findings
          << " implementation-defined (labelled, " << (o.strict ? "counted: --strict" : "not counted")
          << "), " << f.generated << " inputs, " << f.sent << " sent";
    }
    if (!f.note.empty()) out << ": " << f.note;
    out << "\n";
    for (std::size_t i = 0; i < f.contract_files.size() && i < 10; ++i)
      out << "  " << f.contract_files[i] << "\n";
    for (std::size_t i = 0; i < f.contract_details.size() && i < 10; ++i)
      out << "  detail: " << f.contract_details[i] << "\n";
  }
  std::size_t passed = 0, failed = 0, skipped = 0;
  for (const auto& r : report.faults) {
    passed += r.status == Status::kPassed;
    failed += r.status == Status::kFailed;
    skipped += r.status == Status::kSkipped;
  }
  if (!report.faults.empty()) {
    out << "\n"
        << passed << " passed, " << failed << " failed, " << skipped << " skipped (of "
        << report.faults.size() << " faults)";
    std::size_t unsized = std::count_if(report.faults.begin(), report.faults.end(), [](const FaultReport& r) {
      return r.status == Status::kPassed && !r.goal_size;
    });
    if (unsized) {
      std::set<std::string> why;
      for (const auto& r : report.faults) {
        if (r.status == Status::kPassed && !r.goal_size) why.insert(r.reduce_note);
      }
      out << "; the size goal was not checked for " << unsized
          << " of them (not reduced: " << join(std::vector<std::string>(why.begin(), why.end()), "; ") << ")";
    }
    out << "\n";
  }
  out << "results in " << o.out << "\n";
}

json::Value report_to_json(const Report& report, const Options& o) {
  json::Value j = json::Value::object();
  j.add("format", str("crosscheck-selftest/1"));
  j.add("version", str(CROSSCHECK_VERSION));
  json::Value opts = json::Value::object();
  opts.add("secondsPerFault", num(o.seconds_per_fault));
  opts.add("seed", num(o.seed));
  opts.add("allRoots", json::Value::boolean(o.all_roots));
  opts.add("deadlineSeconds", num(static_cast<double>(o.deadline.count()) / 1000));
  opts.add("cores", num(static_cast<std::uint64_t>(std::max(1u, std::thread::hardware_concurrency()))));
  json::Value goals = json::Value::object();
  goals.add("seconds", num(kGoalSeconds));
  goals.add("sizeRatio", num(o.size_goal));
  opts.add("goals", std::move(goals));
  j.add("options", std::move(opts));
  json::Value faults = json::Value::array();
  for (const auto& r : report.faults) {
    json::Value f = json::Value::object();
    f.add("name", str(r.fault.name));
    f.add("area", str(r.fault.area));
    f.add("expectedClass", str(r.fault.expected_class));
    f.add("status", str(status_name(r.status)));
    f.add("note", str(r.note));
    f.add("witnessRoot", str(r.fault.witness_root));
    f.add("witnessBytes", num(static_cast<std::uint64_t>(r.fault.witness_payload.size())));
    f.add("witnessDetected", opt_bool(r.witness_detected));
    json::Value wc = json::Value::array();
    for (const auto& c : r.witness_classes) wc.push(str(c));
    f.add("witnessClasses", std::move(wc));
    f.add("firstSeconds", r.first_seconds ? num(*r.first_seconds) : json::Value::null());
    json::Value fc = json::Value::array();
    for (const auto& c : r.first_classes) fc.push(str(c));
    f.add("firstClasses", std::move(fc));
    f.add("expectedSeconds", r.expected_seconds ? num(*r.expected_seconds) : json::Value::null());
    f.add("findingFile", r.expected_file.empty() ? json::Value::null() : str(r.expected_file));
    f.add("implementationDefined", opt_bool(r.expected_label));
    f.add("foundBytes",
          r.expected_seconds ? num(static_cast<std::uint64_t>(r.found_bytes)) : json::Value::null());
    f.add("reducedBytes",
          r.reduced_bytes ? num(static_cast<std::uint64_t>(*r.reduced_bytes)) : json::Value::null());
    f.add("reduceNote", str(r.reduce_note));
    f.add("goalTime", opt_bool(r.goal_time));
    f.add("goalClass", opt_bool(r.goal_class));
    f.add("goalSize", opt_bool(r.goal_size));
    f.add("generated", num(r.generated));
    f.add("sent", num(r.sent));
    f.add("wallSeconds", num(r.seconds));
    f.add("folder", str(r.folder));
    faults.push(std::move(f));
  }
  j.add("faults", std::move(faults));
  if (report.false_alarms) {
    const auto& a = *report.false_alarms;
    json::Value f = json::Value::object();
    f.add("status", str(status_name(a.status)));
    f.add("note", str(a.note));
    f.add("seconds", num(a.seconds));
    f.add("generated", num(a.generated));
    f.add("sent", num(a.sent));
    f.add("contractFindings", num(static_cast<std::uint64_t>(a.contract_findings)));
    f.add("implementationDefinedFindings",
          num(static_cast<std::uint64_t>(a.implementation_defined_findings)));
    json::Value files = json::Value::array();
    for (const auto& x : a.contract_files) files.push(str(x));
    f.add("contractFiles", std::move(files));
    f.add("folder", str(a.folder));
    j.add("falseAlarms", std::move(f));
  } else {
    j.add("falseAlarms", json::Value::null());
  }
  j.add("interrupted", json::Value::boolean(report.interrupted));
  j.add("exitCode", num(static_cast<std::uint64_t>(report.exit_code())));
  return j;
}

}  // namespace crosscheck::selftest
