// contextual_faults.cpp: the layer-3 stand-ins' runs (see contextual_faults.hpp).
#include "selftest/contextual_faults.hpp"

#include <chrono>
#include <filesystem>
#include <set>

#include "core/impl_result.hpp"
#include "exec/adapter_config.hpp"
#include "exec/adapter_pool.hpp"
#include "interop/client_config.hpp"
#include "interop/client_runner.hpp"
#include "layers/contextual/compare/reference_result.hpp"
#include "layers/contextual/compare/scenario_verdict.hpp"
#include "layers/contextual/generate/scenario_generator.hpp"
#include "layers/contextual/rows/scenario_file.hpp"
#include "selftest/adapters.hpp"
#include "selftest/shared.hpp"
#include "util/result.hpp"

namespace crosscheck::selftest {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kStandin = "standin";
constexpr const char* kRewordingFault = "reworded-errors";  // the stand-in's no-fault mode

/// The real Python interop client of the client configuration, or why there is none.
Result<scenario::ClientSpec, std::string> real_client(const Options& o) {
  const std::string path = o.client_config.empty() ? scenario::default_client_config_path() : o.client_config;
  auto all = scenario::load_client_config(path, scenario::checkout_dir());
  if (!all.ok()) return all.error();
  auto selected = scenario::select_clients(all.value(), {"python"});
  if (!selected.ok()) return selected.error();
  const scenario::ClientSpec& c = selected.value().front();
  if (c.unavailable) return "the Python interop client is unavailable: " + *c.unavailable;
  return c;
}

/// The stand-in for `fault` in front of `real`: its argv first, the real client's after "--".
scenario::ClientSpec standin(const scenario::ClientSpec& real, const std::string& fault, const Options& o) {
  scenario::ClientSpec s = real;
  s.name = kStandin;
  s.description = "selftest/client_standin.py --fault " + fault + " in front of " + real.name;
  s.argv = {o.python,       (fs::path(selftest_dir()) / "client_standin.py").string(),
            "--fault",      fault,
            "--crosscheck", o.crosscheck_exe};
  if (!o.schema_path.empty()) s.argv.insert(s.argv.end(), {"--schema", o.schema_path});
  s.argv.push_back("--");
  s.argv.insert(s.argv.end(), real.argv.begin(), real.argv.end());
  return s;
}

/// The runner of the stand-in for `fault`, its client files under `folder`/clients. The deadline is
/// generous: the stand-in runs the real client and `crosscheck apply` per row.
scenario::ClientRunner standin_runner(const scenario::ClientSpec& real, const std::string& fault,
                                      const Options& o, const std::string& folder) {
  scenario::RunnerOptions ro;
  ro.work_dir = (fs::path(folder) / "clients").string();
  ro.crosscheck_exe = o.crosscheck_exe;
  ro.batch_deadline = std::chrono::milliseconds(120000);
  return scenario::ClientRunner(standin(real, fault, o), ro);
}

std::vector<const scenario_gen::Family*> families_of(const std::vector<std::string>& names) {
  std::vector<const scenario_gen::Family*> out;
  if (names.empty()) {
    for (const auto& f : scenario_gen::families()) out.push_back(&f);
    return out;
  }
  for (const auto& n : names) {
    const scenario_gen::Family* f = scenario_gen::find_family(n);
    if (!f) throw Fatal("selftest: no scenario family named '" + n + "' (docs/scenario-generator.md)");
    out.push_back(f);
  }
  return out;
}

/// One settled row of a stand-in batch.
struct RowVerdict {
  std::string id;
  bool altered = false;
  std::vector<scenario::Difference> differences;  ///< those involving the stand-in
};

/// Runs batches of generated rows through the stand-in and the reference until `done` says so or the
/// time is up; `take` gets each settled row with the batch's time since the start.
struct BatchLoop {
  const canonical::CanonicalValidator& validator;
  const Options& o;
  std::vector<const scenario_gen::Family*> families;
  std::uint64_t rows = 0, batches = 0;

  template <class Take, class Done>
  void run(scenario::ClientRunner& runner, double seconds, Take take, Done done) {
    scenario_gen::ScenarioGenerator generator(validator);
    const auto started = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
    while (!done() && elapsed() < seconds && !exec::stop_requested()) {
      // Deterministic: the rows of batch b depend on (seed, b) and the families alone.
      auto generated = generator.generate_many(o.seed * 1000003 + batches, o.scenario_batch, families);
      ++batches;
      auto parsed = scenario::parse_scenario_text(scenario_gen::scenario_file_text(generated), "generated");
      if (!parsed.ok())
        throw Fatal("internal: a generated row breaks the scenario format: " + parsed.error().text());
      std::vector<const scenario::Row*> batch;
      for (const auto& r : parsed.value().rows) batch.push_back(&r);
      auto results = runner.run(batch);
      const double t = elapsed();
      for (const scenario::Row* row : batch) {
        ++rows;
        scenario::RowResult reference = scenario::reference_result(validator, *row);
        const scenario::RowResult& s = results[row->id];
        RowVerdict v;
        v.id = row->id;
        const json::Value* mark = s.report_row.is_object() ? s.report_row.find("selftestAltered") : nullptr;
        v.altered = mark && mark->is_bool() && mark->as_bool();
        for (auto& d :
             scenario::compare_row(*row, {{core::kReferenceImplementation, &reference}, {kStandin, &s}})) {
          if (std::find(d.involved.begin(), d.involved.end(), kStandin) != d.involved.end())
            v.differences.push_back(std::move(d));
        }
        take(v, t, s.batch_dir);
      }
    }
  }
};

}  // namespace

std::string contextual_missing_part(const Options& o) {
  if (find_program(o.python).empty())
    return o.python + " not found: the layer-3 stand-in is a Python program";
  if (!fs::exists(fs::path(selftest_dir()) / "client_standin.py"))
    return (fs::path(selftest_dir()) / "client_standin.py").string() + " is missing";
  if (o.crosscheck_exe.empty() || find_program(o.crosscheck_exe).empty())
    return "no crosscheck program for the scripted server and `crosscheck apply`";
  auto real = real_client(o);
  return real.ok() ? "" : real.error();
}

FaultReport run_contextual_fault(const canonical::CanonicalValidator& validator, const Fault& fault,
                                 const Options& o, std::ostream& log) {
  FaultReport r;
  r.fault = fault;
  r.folder = (fs::path(o.out) / fault.name).string();
  r.reduce_note = "layer-3 rows are not reduced";
  const auto started = Clock::now();
  auto real = real_client(o);
  if (!real.ok()) {
    r.note = real.error();
    return r;
  }
  scenario::ClientRunner runner = standin_runner(real.value(), fault.name, o, r.folder);
  BatchLoop loop{validator, o, families_of(fault.families)};
  try {
    loop.run(
        runner, o.seconds_per_fault,
        [&](const RowVerdict& v, double t, const std::string& batch_dir) {
          if (!v.altered) {
            r.client_own_rows += !v.differences.empty();
            return;
          }
          ++r.altered_rows;
          if (v.differences.empty()) return;
          std::set<std::string> classes;
          for (const auto& d : v.differences) classes.insert(d.cls);
          if (!r.first_seconds) {
            r.first_seconds = t;
            r.first_classes.assign(classes.begin(), classes.end());
          }
          if (!r.expected_seconds && classes.count(fault.expected_class)) {
            r.expected_seconds = t;
            r.expected_row = v.id;
            r.expected_file = batch_dir;
            for (const auto& d : v.differences)
              if (d.cls == fault.expected_class) r.expected_bucket = d.bucket;
            r.expected_label = false;
          }
        },
        [&] { return r.expected_seconds.has_value(); });
  } catch (const Fatal& e) {
    r.status = Status::kSkipped;
    r.note = std::string("the stand-in could not run: ") + e.what();
    return r;
  }
  r.generated = r.sent = loop.rows;
  r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  r.goal_time = r.expected_seconds && *r.expected_seconds <= kGoalSeconds;
  if (r.first_seconds) {
    r.goal_class = false;
    for (const auto& c : r.first_classes) {
      r.goal_class = *r.goal_class || c == fault.expected_class ||
                     std::find(fault.also_right_classes.begin(), fault.also_right_classes.end(), c) !=
                         fault.also_right_classes.end();
    }
  }
  const bool passed = r.goal_time.value_or(false) && r.goal_class.value_or(false);
  r.status = passed ? Status::kPassed : Status::kFailed;
  if (r.altered_rows == 0) {
    r.note = "no generated row exercised the rule in " + fmt_seconds(o.seconds_per_fault);
  } else if (!r.first_seconds) {
    r.note = std::to_string(r.altered_rows) + " rewritten rows, no difference";
  } else if (!r.expected_seconds) {
    r.note = "found only as " + join(r.first_classes, ",");
  } else if (!*r.goal_time) {
    r.note = "found after the 60 s goal";
  } else if (!*r.goal_class) {
    r.note = "first put in " + join(r.first_classes, ",");
  }
  if (exec::stop_requested()) {
    r.status = Status::kSkipped;
    r.note = "interrupted";
  }
  log << "  " << fault.name << ": " << status_name(r.status)
      << (r.expected_seconds
              ? " found in " + fmt_seconds(*r.expected_seconds) + " (row " + r.expected_row + ")"
              : std::string(" not found"))
      << ", " << loop.rows << " rows, " << r.altered_rows << " rewritten"
      << (r.note.empty() ? "" : " (" + r.note + ")") << "\n";
  return r;
}

constexpr std::uint64_t kMinRewordedRows = 5;
constexpr double kRewordingExtraSeconds = 120;

ContextualFalseAlarmReport run_contextual_false_alarms(const canonical::CanonicalValidator& validator,
                                                       const Options& o, std::ostream& log) {
  ContextualFalseAlarmReport r;
  r.folder = (fs::path(o.out) / kRewordingFault).string();
  const auto started = Clock::now();
  auto real = real_client(o);
  if (!real.ok()) {
    r.note = real.error();
    return r;
  }
  scenario::ClientRunner runner = standin_runner(real.value(), kRewordingFault, o, r.folder);
  BatchLoop loop{validator, o, families_of({})};
  // The time is a floor, not the whole budget: on a loaded machine one batch can take the whole
  // --time, and a check judged on no reworded row says nothing. So it goes on, up to 120 s more,
  // until kMinRewordedRows rows had an error text to reword.
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  try {
    loop.run(
        runner, o.false_alarm_seconds + kRewordingExtraSeconds,
        [&](const RowVerdict& v, double, const std::string&) {
          if (!v.altered) return;
          ++r.altered_rows;
          for (const auto& d : v.differences) {
            ++r.differences;
            if (r.details.size() < 20) r.details.push_back(v.id + ": " + d.summary);
          }
        },
        [&] { return elapsed() >= o.false_alarm_seconds && r.altered_rows >= kMinRewordedRows; });
  } catch (const Fatal& e) {
    r.note = std::string("the stand-in could not run: ") + e.what();
    return r;
  }
  r.rows = loop.rows;
  r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  r.status = r.differences == 0 && r.altered_rows > 0 ? Status::kPassed : Status::kFailed;
  if (r.altered_rows == 0)
    r.note = "no row had an error text to reword";
  else if (r.differences)
    r.note = std::to_string(r.differences) +
             " difference(s) on rows that differ only in error texts: a harness bug";
  if (exec::stop_requested()) {
    r.status = Status::kSkipped;
    r.note = "interrupted";
  }
  log << "  " << kRewordingFault << ": " << status_name(r.status) << ", " << r.rows << " rows, "
      << r.altered_rows << " reworded, " << r.differences << " differences\n";
  return r;
}

}  // namespace crosscheck::selftest
