// fault_campaign.cpp: a seeded fault's campaign and the false-alarm campaign (see fault_campaign.hpp).
#include "selftest/fault_campaign.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "campaign/campaign.hpp"
#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "core/layers.hpp"
#include "exec/adapter_pool.hpp"
#include "exec/implementation_set.hpp"
#include "schema/loader.hpp"
#include "selftest/adapters.hpp"
#include "selftest/shared.hpp"

namespace crosscheck::selftest {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// A divergence of the fault's class, label and layer.
bool expected(const Fault& f, const core::Divergence& d) {
  return f.expected_class == core::class_name(d.cls) &&
         d.implementation_defined == f.implementation_defined && d.layer == f.layer;
}

/// The layers a fault is fuzzed with: a layer-2 fault with the canonical layer alone (the faulty
/// proxy changes only validate answers, so decoding through it would only slow the campaign down).
core::Layers layers_for(const Fault& f) {
  core::Layers l;
  if (f.layer == core::kCanonicalLayer) {
    l.structural = false;
    l.canonical = true;
  }
  return l;
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
    bool contract = false, any = false, shared = false;
    // A layer-inconsistency the reference shows on the same input is the protocol's (the reference's
    // own two layers disagree there): it does not tell `impl` from the reference.
    bool reference_inconsistent = false;
    for (const auto& d : w.finding.divergences) {
      reference_inconsistent =
          reference_inconsistent ||
          (d.cls == core::DivergenceClass::kLayerInconsistency &&
           d.implementations == std::vector<std::string>{core::kReferenceImplementation});
    }
    for (const auto& d : w.finding.divergences) {
      if (!involves(d, impl_)) continue;
      if (reference_inconsistent && d.cls == core::DivergenceClass::kLayerInconsistency) {
        shared = true;
        continue;
      }
      any = true;
      classes.insert(core::class_name(d.cls));
      if (!d.implementation_defined) {
        contract = true;
        if (contract_details.size() < 20) contract_details.push_back(d.detail);
      }
      if (fault_ && !expected_seconds && expected(*fault_, d)) {
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
    } else if (shared) {
      ++shared_with_reference;
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
  std::size_t shared_with_reference = 0;  ///< findings with only layer-inconsistencies the reference shares
  std::vector<std::string> contract_files, contract_details;

 private:
  std::string impl_;
  const Fault* fault_;
  std::set<std::string> handled_;  // a finding file rewritten for a new bucket is one finding
};

/// Runs the campaign `c` (its log in `log_path`) while `watch` follows its findings; `stop_at_expected` ends
/// it at the first finding in the fault's expected class.
campaign::CampaignSummary watched_campaign(const schema::Ir& ir, exec::ImplementationSet& set,
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

}  // namespace

/// The reference command with `--schema path`: the value of an existing --schema is replaced.
std::vector<std::string> with_schema(std::vector<std::string> argv, const std::string& path) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
    if (argv[i] == "--schema") {
      argv[i + 1] = path;
      return argv;
    }
  }
  argv.insert(argv.end(), {"--schema", path});
  return argv;
}

FaultReport run_fault(std::shared_ptr<const schema::Ir> run_ir, const Fault& fault, const Options& o,
                      const Reducer& reducer, std::ostream& log) {
  FaultReport r;
  r.fault = fault;
  r.folder = (fs::path(o.out) / fault.name).string();
  auto started = Clock::now();
  const bool canonical = fault.layer == core::kCanonicalLayer;
  // A fault with a schema of its own is fuzzed on it, in process and behind the proxy alike.
  std::shared_ptr<const schema::Ir> ir = run_ir;
  std::vector<std::string> reference = o.reference;
  if (!fault.schema.empty()) {
    const std::string path = (fs::path(exec::repository_root()) / fault.schema).string();
    auto loaded = schema::load_schema(path);
    if (!loaded.ok()) {
      r.status = Status::kFailed;
      r.note = "its schema does not load: " + loaded.error().message();
      return r;
    }
    ir = std::make_shared<const schema::Ir>(std::move(loaded).value());
    reference = with_schema(reference, path);
  }
  std::vector<std::string> argv = {o.python, (fs::path(selftest_dir()) / "faulty_adapter.py").string(),
                                   canonical ? "--canonical-fault" : "--fault", fault.name, "--"};
  argv.insert(argv.end(), reference.begin(), reference.end());
  std::vector<exec::AdapterConfig> adapters = {proxy_config(core::kReferenceImplementation, {}),
                                               proxy_config(kFaulty, argv)};
  exec::ImplementationSet set(ir, adapters, pool_options(o));
  for (const auto& f : set.failures()) {
    if (f.adapter == kFaulty) {
      r.status = Status::kSkipped;
      r.note = "the faulty adapter could not start: " + f.message;
      return r;
    }
  }
  // Is the fault real? Its hand-minimal witness must diverge in the expected class.
  auto results = set.run({{fault.witness_root, fault.witness_payload}}, layers_for(fault));
  std::set<std::string> classes;
  bool witness_ok = false;
  for (const auto& d : results.front().divergences) {
    if (!involves(d, kFaulty)) continue;
    classes.insert(core::class_name(d.cls));
    witness_ok = witness_ok || expected(fault, d);
  }
  r.witness_detected = witness_ok;
  r.witness_classes.assign(classes.begin(), classes.end());
  if (exec::stop_requested()) {
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
  c.layers = layers_for(fault);
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
      auto reduced = reducer(r.expected_file, watch.expected_bucket, set, *ir);
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
    r.note = "the hand-minimal witness does not diverge in " + fault.expected_class +
             (canonical ? " at the canonical layer" : "");
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
  if (exec::stop_requested()) {
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
  exec::ImplementationSet set(
      ir, {proxy_config(core::kReferenceImplementation, {}), proxy_config(kEquivalent, argv)},
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
  // Both layers: the equivalent adapter answers validate with the reference's verdicts too (its
  // errors reversed, its own message), so a layer-2 finding would be a harness bug as well.
  c.layers.structural = true;
  c.layers.canonical = true;
  c.adapters_fingerprint = join(set.names(), ",");
  FindingWatch watch(kEquivalent, nullptr);
  auto summary = watched_campaign(*ir, set, c, watch, false, r.folder + ".log");
  r.generated = summary.generated;
  r.sent = summary.sent;
  r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  r.contract_findings = watch.contract_findings;
  r.implementation_defined_findings = watch.implementation_defined_findings;
  r.shared_with_reference = watch.shared_with_reference;
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
  if (exec::stop_requested()) {
    r.status = Status::kSkipped;
    r.note = "interrupted";
  }
  log << "  equivalent: " << status_name(r.status) << ", " << r.contract_findings << " contract and "
      << r.implementation_defined_findings << " implementation-defined findings in " << fmt_seconds(r.seconds)
      << "\n";
  return r;
}

}  // namespace crosscheck::selftest
