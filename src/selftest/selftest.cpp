// selftest.cpp: `crosscheck selftest` (see selftest.hpp): the faults selected, the output folder
// prepared, each fault's campaign and the false-alarm check run in turn (fault_campaign.hpp); the
// report is selftest_report.cpp's.
#include "selftest/selftest.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "canonical/canonical_validator.hpp"
#include "core/impl_result.hpp"
#include "exec/adapter_pool.hpp"
#include "selftest/adapters.hpp"
#include "selftest/contextual_faults.hpp"
#include "selftest/fault_campaign.hpp"
#include "selftest/shared.hpp"

namespace crosscheck::selftest {
namespace {

namespace fs = std::filesystem;

void prepare_out(const std::string& out) {
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_empty(out, ec))
    throw Fatal("--out " + out + ": the folder exists and is not empty; the self-test writes a fresh one");
  fs::create_directories(out, ec);
  if (ec) throw Fatal("--out " + out + ": cannot create the folder: " + ec.message());
}

/// The layer-3 faults (and the rewording check) into `report`, before the other layers' faults.
void run_contextual(const std::shared_ptr<const schema::Ir>& ir, const std::vector<const Fault*>& faults,
                    bool false_alarms, const Options& o, Report& report, std::ostream& log) {
  if (faults.empty() && !false_alarms) return;
  std::string missing = contextual_missing_part(o);
  std::optional<canonical::CanonicalValidator> validator;
  if (missing.empty()) {
    auto loaded = canonical::CanonicalValidator::from_ir(*ir);
    if (!loaded.ok())
      missing = "the schema does not load as canonical schemas: " + loaded.error().text();
    else
      validator.emplace(std::move(loaded.value()));
  }
  if (!missing.empty()) log << "cannot run the layer-3 stand-ins: " << missing << "\n";
  std::size_t n = 0;
  for (const Fault* f : faults) {
    if (!missing.empty() || exec::stop_requested()) {
      FaultReport r;
      r.fault = *f;
      r.note = missing.empty() ? "interrupted" : missing;
      report.interrupted = report.interrupted || missing.empty();
      report.faults.push_back(std::move(r));
      continue;
    }
    log << "[layer 3: " << ++n << "/" << faults.size() << "] " << f->name << " (expected "
        << f->expected_class << ", families " << join(f->families, ",") << ", up to "
        << fmt_seconds(o.seconds_per_fault) << ")\n";
    report.faults.push_back(run_contextual_fault(*validator, *f, o, log));
  }
  if (false_alarms) {
    report.contextual_false_alarms = ContextualFalseAlarmReport{};
    if (!missing.empty() || exec::stop_requested()) {
      report.contextual_false_alarms->note = missing.empty() ? "interrupted" : missing;
    } else {
      log << "[no false alarms, layer 3] the rewording stand-in, every family, "
          << fmt_seconds(o.false_alarm_seconds) << "\n";
      report.contextual_false_alarms = run_contextual_false_alarms(*validator, o, log);
    }
  }
}

}  // namespace

Report run_selftest(std::shared_ptr<const schema::Ir> ir, const std::vector<Fault>& table,
                    const Options& options, const Reducer& reducer, std::ostream& log) {
  Options o = options;
  o.python = resolve_python(options.python);
  std::vector<const Fault*> selected;
  for (const auto& name : o.faults) {
    if (name == "all") {
      for (const auto& f : table)
        if (o.selects_layer(f.layer)) selected.push_back(&f);
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
    // A fault with a schema of its own has its root there; run_fault loads it and says if it does not.
    if (f->layer != kContextualLayer && f->schema.empty() && !ir->find_root(f->witness_root))
      throw Fatal("fault " + f->name + ": its witness root '" + f->witness_root +
                  "' is not a root of the schema");
  }
  prepare_out(o.out);

  Report report;
  // Layer 3 runs on the reference host's canonical validator and the real Python client.
  std::vector<const Fault*> contextual;
  for (const Fault* f : selected)
    if (f->layer == kContextualLayer) contextual.push_back(f);
  selected.erase(std::remove_if(selected.begin(), selected.end(),
                                [](const Fault* f) { return f->layer == kContextualLayer; }),
                 selected.end());
  const bool layer12_false_alarms = o.no_false_alarms && (o.selects_layer(core::kStructuralLayer) ||
                                                          o.selects_layer(core::kCanonicalLayer));
  const bool layer3_false_alarms = o.no_false_alarms && o.selects_layer(kContextualLayer);
  run_contextual(ir, contextual, layer3_false_alarms, o, report, log);
  if (selected.empty() && !layer12_false_alarms) {
    report.interrupted = report.interrupted || exec::stop_requested();
    return report;
  }
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
    if (layer12_false_alarms) {
      report.false_alarms = FalseAlarmReport{};
      report.false_alarms->note = missing;
      log << "skipped: the false-alarm check\n";
    }
    return report;
  }

  std::size_t n = 0;
  for (const Fault* f : selected) {
    if (exec::stop_requested()) {
      report.interrupted = true;
      FaultReport r;
      r.fault = *f;
      r.note = "interrupted";
      report.faults.push_back(std::move(r));
      continue;
    }
    log << "[" << ++n << "/" << selected.size() << "] " << f->name << " (expected " << f->expected_class
        << " at the " << f->layer << " layer, root " << (o.all_roots ? std::string("all") : f->witness_root)
        << ", up to " << fmt_seconds(o.seconds_per_fault) << ")\n";
    report.faults.push_back(run_fault(ir, *f, o, reducer, log));
  }
  if (layer12_false_alarms) {
    if (exec::stop_requested()) {
      report.interrupted = true;
      report.false_alarms = FalseAlarmReport{};
      report.false_alarms->note = "interrupted";
    } else {
      log << "[no false alarms] equivalent adapter, every root, both layers, "
          << fmt_seconds(o.false_alarm_seconds) << "\n";
      report.false_alarms = run_false_alarms(ir, o, log);
    }
  }
  report.interrupted = report.interrupted || exec::stop_requested();
  return report;
}

}  // namespace crosscheck::selftest
