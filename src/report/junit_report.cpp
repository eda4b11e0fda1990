// junit_report.cpp: JUnit XML of a run, so CI systems list the divergences as tests: one test case
// per bucket (a failure for a contract divergence, skipped with the details in system-out for an
// implementation-defined one), and a passing case per fuzzed root without any bucket. Every
// string is display text first (escape.hpp), so nothing XML 1.0 forbids can reach the file.
#include <set>

#include "report/escape.hpp"
#include "report/writers.hpp"

namespace crosscheck::report {
namespace {

std::string case_body(const RunData& run, const Bucket& b) {
  const FindingFile& file = run.findings[b.shown];
  const run::Finding& f = b.finding(run.findings);
  std::string s;
  s += "bucket " + b.id + " (" + core::class_name(b.cls) + " on";
  for (const auto& r : b.roots) s += " " + r;
  s += "; the payload below is of " + b.root + ")\n";
  s += b.divergence.detail + "\n";
  if (!b.blame.deviating.empty()) {
    s += "deviating:";
    for (const auto& i : b.blame.deviating) s += " " + i;
    s += std::string(" (basis ") + verdict::basis_name(b.blame.basis) + ": " + b.blame.explanation() + ")\n";
  }
  if (!f.traits.empty()) {
    s += "implementation-defined input traits:";
    for (const auto& t : f.traits) s += " " + t;
    s += "\n";
  }
  s +=
      "\npayload (" + std::to_string(f.input.size()) + " bytes" +
      (b.shown_minimized ? ", minimized from " + std::to_string(file.original.input.size()) : std::string()) +
      "):\n";
  DisplayOptions o;
  o.max_chars = 4000;
  s += display_text(f.input, o) + "\n\nresults:\n";
  for (const auto& r : f.results) {
    s += "  " + r.implementation + ": " + outcome_text(r);
    std::string d = diagnostics_text(r);
    if (!d.empty()) s += ": " + d;
    if (r.message) s += " (" + *r.message + ")";
    s += "\n";
  }
  s += "\nreplay:\n";
  for (std::size_t k : b.files) {
    s += "  " + RunData::replay_command(run.findings[k].path) + "\n";
    if (run.findings[k].minimized) s += "  " + RunData::replay_command(run.findings[k].min_path) + "\n";
  }
  return s;
}

}  // namespace

std::string junit_report(const RunData& run) {
  std::string cases;
  std::size_t tests = 0, failures = 0, skipped = 0;
  std::set<std::string> roots_with_buckets;
  for (const auto& b : run.buckets) {
    roots_with_buckets.insert(b.roots.begin(), b.roots.end());
    std::string roots;
    for (const auto& r : b.roots) roots += (roots.empty() ? "" : ",") + r;
    ++tests;
    std::string who;
    for (const auto& i : b.blame.deviating) who += (who.empty() ? "" : ",") + i;
    // classname groups by divergence class: a bucket is one fault and may show on several roots.
    std::string name =
        b.id + " on " + roots +
        (who.empty() ? "" : " (" + who + " deviates, by " + verdict::basis_name(b.blame.basis) + ")");
    cases += "    <testcase classname=\"" +
             xml_attribute(std::string("crosscheck.") + core::class_name(b.cls)) + "\" name=\"" +
             xml_attribute(name) + "\" time=\"0\">\n";
    std::string body = xml_text(case_body(run, b));
    if (run.fails(b)) {
      ++failures;
      cases += "      <failure type=\"" + xml_attribute(core::class_name(b.cls)) + "\" message=\"" +
               xml_attribute((run.baseline.empty() ? "" : "new, not in the baseline: ") +
                             display_line(b.divergence.detail, 500)) +
               "\">" + body + "</failure>\n";
    } else {
      ++skipped;
      std::string why = "implementation-defined input: ";
      if (b.known) {
        why = "known to the baseline (";
        for (std::size_t i = 0; i < b.known_entries.size(); ++i) why += (i ? "; " : "") + b.known_entries[i];
        why += "): ";
      }
      cases += "      <skipped message=\"" + xml_attribute(why + display_line(b.divergence.detail, 500)) +
               "\"/>\n      <system-out>" + body + "</system-out>\n";
    }
    cases += "    </testcase>\n";
  }
  // Roots that were fuzzed without a divergence pass, so a CI dashboard shows what was covered.
  const run::Summary& totals = run.totals();
  const std::vector<std::string>& fuzzed = totals.roots;
  auto by_root = summary_counts(totals.by_root);
  for (const auto& root : fuzzed) {
    if (roots_with_buckets.count(root) || by_root[root] > 0) continue;
    ++tests;
    cases += "    <testcase classname=\"crosscheck.root\" name=\"" + xml_attribute(root + ": no divergence") +
             "\" time=\"0\"/>\n";
  }
  std::string timestamp;
  for (const auto& e : run.events.events) {
    if (e.name != "start") continue;
    if (const json::Value* at = e.fields.find("startedAt"); at && at->is_string())
      timestamp = at->string_value();
    break;
  }
  std::string counts = " tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
                       "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\" time=\"" +
                       format_fixed(totals.elapsed, 3) + "\"";
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites name=\"crosscheck\"" + counts + ">\n";
  xml +=
      "  <testsuite name=\"" +
      xml_attribute((run.run.command.empty() ? "crosscheck fuzz " : "crosscheck " + run.run.command + " ") +
                    run.dir) +
      "\"" + counts +
      (timestamp.empty() ? std::string() : " timestamp=\"" + xml_attribute(timestamp) + "\"") + ">\n";
  xml += "    <properties>\n";
  auto property = [&](const std::string& name, const std::string& value) {
    xml += "      <property name=\"" + xml_attribute(name) + "\" value=\"" + xml_attribute(value) + "\"/>\n";
  };
  property("status", run_status(run));
  property("seed", totals.seed.value_or("0"));
  std::string impls;
  for (const auto& i : run.implementations) impls += (impls.empty() ? "" : ",") + i;
  property("implementations", impls);
  property("baseline", (run.baseline.empty() ? "" : run.baseline + ": ") + baseline_summary(run));
  // Of the (node, outcome) pairs a payload can reach, and of all tracked pairs (docs/reports.md).
  double percent = totals.coverage_percent.value_or(0.0), percent_all = percent;
  if (const std::optional<run::CoverageFigures> f =
          run.coverage ? std::optional(run.coverage->figures) : totals.coverage) {
    percent = f->percent();
    percent_all = f->percent_all();
  }
  property("schemaCoveragePercent", format_fixed(percent, 1));
  property("schemaCoveragePercentAll", format_fixed(percent_all, 1));
  property("inputsGenerated", std::to_string(totals.generated));
  property("inputsSent", std::to_string(totals.sent));
  xml += "    </properties>\n" + cases + "  </testsuite>\n</testsuites>\n";
  return xml;
}

}  // namespace crosscheck::report
