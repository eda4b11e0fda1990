// selftest_report.cpp: the self-test's verdict (Report::exit_code), its table and its JSON report
// (crosscheck-selftest/1).
#include <algorithm>
#include <iomanip>
#include <set>
#include <sstream>
#include <thread>

#include "selftest/selftest.hpp"
#include "selftest/shared.hpp"

namespace crosscheck::selftest {
namespace {

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
  if (contextual_false_alarms) {
    failed = failed || contextual_false_alarms->status == Status::kFailed;
    skipped = skipped || contextual_false_alarms->status == Status::kSkipped;
  }
  if (failed) return kExitDivergence;
  return skipped ? kExitAdapter : kExitClean;
}

void print_report(const Report& report, const Options& o, std::ostream& out) {
  if (!report.faults.empty()) {
    out << "\nseeded faults (goals: found within " << static_cast<int>(kGoalSeconds)
        << " s, first put in the expected class, minimized witness <= " << o.size_goal
        << "x the hand-minimal one)\n";
    out << std::left << std::setw(30) << "fault" << std::setw(22) << "expected" << std::setw(9) << "witness"
        << std::setw(10) << "found" << std::setw(34) << "first class" << std::setw(22) << "bytes min/hand"
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
      std::string bytes =
          r.fault.layer == kContextualLayer ? (r.expected_row.empty() ? "-" : "row " + r.expected_row)
          : r.reduced_bytes
              ? std::to_string(*r.reduced_bytes) + "/" + std::to_string(r.fault.witness_payload.size())
          : r.expected_seconds ? "unreduced " + std::to_string(r.found_bytes) + "/" +
                                     std::to_string(r.fault.witness_payload.size())
                               : "-";
      std::string goals = std::string(goal(r.goal_time)) + "/" + goal(r.goal_class) + "/" + goal(r.goal_size);
      out << std::left << std::setw(30) << r.fault.name << std::setw(22) << r.fault.expected_class
          << std::setw(9) << witness << std::setw(10) << found << std::setw(34) << cls + " " << std::setw(22)
          << bytes + " " << std::setw(16) << goals << status_name(r.status)
          << (r.note.empty() ? "" : ": " + r.note) << "\n";
    }
  }
  if (report.false_alarms) {
    const auto& f = *report.false_alarms;
    out << "\nno false alarms (equivalent adapter, every root, both layers, "
        << fmt_seconds(o.false_alarm_seconds) << "): " << status_name(f.status);
    if (f.status != Status::kSkipped) {
      out << ", " << f.contract_findings << " contract findings, " << f.implementation_defined_findings
          << " implementation-defined (labelled, " << (o.strict ? "counted: --strict" : "not counted")
          << "), " << f.shared_with_reference
          << " with only layer-inconsistencies the reference shares (not counted), " << f.generated
          << " inputs, " << f.sent << " sent";
    }
    if (!f.note.empty()) out << ": " << f.note;
    out << "\n";
    for (std::size_t i = 0; i < f.contract_files.size() && i < 10; ++i)
      out << "  " << f.contract_files[i] << "\n";
    for (std::size_t i = 0; i < f.contract_details.size() && i < 10; ++i)
      out << "  detail: " << f.contract_details[i] << "\n";
  }
  if (report.contextual_false_alarms) {
    const auto& f = *report.contextual_false_alarms;
    out << "\nno false alarms, layer 3 (the rewording stand-in, every family, "
        << fmt_seconds(o.false_alarm_seconds) << "): " << status_name(f.status);
    if (f.status != Status::kSkipped)
      out << ", " << f.rows << " rows, " << f.altered_rows << " with reworded errors, " << f.differences
          << " differences";
    if (!f.note.empty()) out << ": " << f.note;
    out << "\n";
    for (const auto& d : f.details) out << "  " << d << "\n";
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
      return r.status == Status::kPassed && !r.goal_size && r.fault.layer != kContextualLayer;
    });
    if (unsized) {
      std::set<std::string> why;
      for (const auto& r : report.faults) {
        if (r.status == Status::kPassed && !r.goal_size && r.fault.layer != kContextualLayer)
          why.insert(r.reduce_note);
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
    f.add("layer", str(r.fault.layer));
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
    if (r.fault.layer == kContextualLayer) {
      json::Value l3 = json::Value::object();
      json::Value fams = json::Value::array();
      for (const auto& x : r.fault.families) fams.push(str(x));
      l3.add("families", std::move(fams));
      l3.add("alteredRows", num(static_cast<std::uint64_t>(r.altered_rows)));
      l3.add("clientOwnRows", num(static_cast<std::uint64_t>(r.client_own_rows)));
      l3.add("row", r.expected_row.empty() ? json::Value::null() : str(r.expected_row));
      l3.add("bucket", r.expected_bucket.empty() ? json::Value::null() : str(r.expected_bucket));
      f.add("contextual", std::move(l3));
    }
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
    f.add("sharedWithReferenceFindings", num(static_cast<std::uint64_t>(a.shared_with_reference)));
    json::Value files = json::Value::array();
    for (const auto& x : a.contract_files) files.push(str(x));
    f.add("contractFiles", std::move(files));
    f.add("folder", str(a.folder));
    j.add("falseAlarms", std::move(f));
  } else {
    j.add("falseAlarms", json::Value::null());
  }
  if (report.contextual_false_alarms) {
    const auto& a = *report.contextual_false_alarms;
    json::Value f = json::Value::object();
    f.add("status", str(status_name(a.status)));
    f.add("note", str(a.note));
    f.add("seconds", num(a.seconds));
    f.add("rows", num(a.rows));
    f.add("alteredRows", num(static_cast<std::uint64_t>(a.altered_rows)));
    f.add("differences", num(static_cast<std::uint64_t>(a.differences)));
    json::Value details = json::Value::array();
    for (const auto& x : a.details) details.push(str(x));
    f.add("details", std::move(details));
    f.add("folder", str(a.folder));
    j.add("contextualFalseAlarms", std::move(f));
  } else {
    j.add("contextualFalseAlarms", json::Value::null());
  }
  j.add("interrupted", json::Value::boolean(report.interrupted));
  j.add("exitCode", num(static_cast<std::uint64_t>(report.exit_code())));
  return j;
}

}  // namespace crosscheck::selftest
