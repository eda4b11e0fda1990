// report_common.cpp: helpers shared by the report writers, the JSON-lines bucket list, and writing
// the chosen reports into a folder.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "json/write.hpp"
#include "report/writers.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "util/result.hpp"

namespace crosscheck::report {

std::string format_count(double n) {
  if (!std::isfinite(n)) return "?";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", n);
  std::string digits = buf, out;
  std::size_t start = digits[0] == '-' ? 1 : 0;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > start && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string format_fixed(double x, int decimals) {
  if (!std::isfinite(x)) return "?";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string outcome_text(const core::ImplResult& r) {
  std::string s = core::outcome_name(r.outcome);
  std::size_t warnings = 0;
  for (const auto& d : r.diagnostics) warnings += d.severity == "warning";
  if (warnings) s += " (" + std::to_string(warnings) + (warnings == 1 ? " warning)" : " warnings)");
  return s;
}

std::string diagnostics_text(const core::ImplResult& r) {
  std::string s;
  for (const auto& d : r.diagnostics) {
    s += (s.empty() ? "" : "; ") + d.code + " at " + (d.path.empty() ? "(root)" : d.path);
    if (d.severity != "error") s += " [" + d.severity + "]";
  }
  return s;
}

std::map<std::string, double> summary_counts(const run::Counts& counts) {
  std::map<std::string, double> out;
  for (const auto& [k, n] : counts) out[k] = static_cast<double>(n);
  return out;
}

std::string coverage_short(const RunData& run) {
  if (!run.coverage) {
    const run::Summary& s = run.totals();
    if (!s.coverage && !s.coverage_percent) return "n/a";  // a scenarios run has no schema coverage
    return format_fixed(s.coverage ? s.coverage->percent() : s.coverage_percent.value_or(0.0), 1) + "%";
  }
  const run::CoverageFigures& f = run.coverage->figures;
  std::string s = format_fixed(f.percent(), 1) + "%";
  if (f.impossible_pairs() > 0) s += " (" + format_fixed(f.percent_all(), 1) + "% of all pairs)";
  return s;
}

std::string baseline_summary(const RunData& run) {
  std::size_t failing = 0, known = 0;
  for (const auto& b : run.buckets) {
    failing += run.fails(b);
    known += b.known;
  }
  if (run.baseline.empty())
    return "none: known divergences are not told apart from new ones, so they fail too (pass --baseline "
           "FILE, or fuzz with --baseline)";
  std::string s =
      std::to_string(known) + " known bucket(s), " + std::to_string(failing) + " new failing one(s)";
  if (run.baseline_origin == "baseline-check.json")
    s += " (the check recorded in baseline-check.json)";
  else if (run.baseline_origin == "baseline-check.json, sorted again")
    s += " (baseline-check.json missed buckets found after it: every bucket sorted again)";
  else if (run.baseline_origin == "--baseline")
    s += " (--baseline)";
  return s;
}

std::string run_status(const RunData& run) {
  std::size_t failing = 0;
  for (const auto& b : run.buckets) failing += run.fails(b);
  std::size_t known = 0;
  for (const auto& b : run.buckets) known += b.known;
  std::size_t other = run.buckets.size() - failing - known;
  std::string extra;
  if (other) extra += std::to_string(other) + " implementation-defined";
  if (known) extra += (extra.empty() ? "" : ", ") + std::to_string(known) + " known to the baseline";
  if (!extra.empty()) extra = " (" + extra + ")";
  if (run.partial)
    return "INCOMPLETE: the run did not finish; " + std::to_string(failing) + " failing bucket(s) so far";
  // The verdict is the buckets' (verdict/verdict.hpp): with a baseline only new ones fail.
  if (failing > 0)
    return "FAILED: " + std::to_string(failing) + (run.baseline.empty() ? "" : " new") + " bucket(s) of " +
           (run.strict ? std::string("divergences (strict)") : std::string("contract divergences")) +
           (run.baseline.empty() ? ", not checked against a baseline" : "") + extra;
  if (run.buckets.empty()) return "passed: no divergence";
  return std::string(run.baseline.empty() ? "passed: no contract divergence"
                                          : "passed: no new contract divergence") +
         extra;
}

unsigned parse_formats(const std::string& list) {
  unsigned bits = 0;
  std::stringstream ss(list);
  std::string word;
  while (std::getline(ss, word, ',')) {
    if (word == "all")
      bits |= kAllFormats;
    else if (word == "html")
      bits |= kHtml;
    else if (word == "junit")
      bits |= kJunit;
    else if (word == "markdown" || word == "md")
      bits |= kMarkdown;
    else if (word == "jsonl")
      bits |= kJsonl;
    else
      throw Fatal("--format: unknown format '" + word +
                  "' (expected html, junit, markdown, jsonl or all, comma-separated)");
  }
  if (!bits) throw Fatal("--format: expected html, junit, markdown, jsonl or all, comma-separated");
  return bits;
}

std::string buckets_jsonl(const RunData& run) {
  std::string out;
  auto strings = [](const std::vector<std::string>& v) {
    json::Value a = json::Value::array();
    for (const auto& s : v) a.push(json::Value::string(s));
    return a;
  };
  for (const auto& b : run.buckets) {
    const FindingFile& shown = run.findings[b.shown];
    json::Value o = json::Value::object();
    o.add("bucket", json::Value::string(b.id));
    o.add("class", json::Value::string(core::class_name(b.cls)));
    o.add("layer", json::Value::string(b.divergence.layer));
    o.add("root", json::Value::string(b.root));
    o.add("roots", strings(b.roots));
    o.add("implementations", strings(b.divergence.implementations));
    o.add("deviating", strings(b.blame.deviating));
    o.add("blameBasis", json::Value::string(verdict::basis_name(b.blame.basis)));
    o.add("blameReference", json::Value::string(b.blame.reference));
    o.add("referenceWrong", json::Value::boolean(b.reference_wrong));
    o.add("implementationDefined", json::Value::boolean(b.implementation_defined));
    o.add("fails", json::Value::boolean(run.fails(b)));
    o.add("known", json::Value::boolean(b.known));
    o.add("baselineEntries", strings(b.known_entries));
    o.add("detail", json::Value::string(b.divergence.detail));
    o.add("signature", json::Value::string(b.signature));
    std::vector<std::string> files, replay;
    for (std::size_t k : b.files) {
      files.push_back(run.findings[k].path);
      replay.push_back(RunData::replay_command(run.findings[k].path));
      if (run.findings[k].minimized) replay.push_back(RunData::replay_command(run.findings[k].min_path));
    }
    o.add("files", strings(files));
    o.add("shown", json::Value::string(b.shown_minimized ? shown.min_path : shown.path));
    o.add("shownMinimized", json::Value::boolean(b.shown_minimized));
    o.add("replay", strings(replay));
    out += json::write(o) + "\n";
  }
  return out;
}

std::vector<WrittenReport> write_reports(const RunData& run, const std::string& out_dir, unsigned formats) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) throw Fatal("cannot create the report folder " + out_dir + ": " + ec.message());
  std::vector<WrittenReport> written;
  auto write = [&](const char* format, const char* name, const std::string& content) {
    std::string path = (std::filesystem::path(out_dir) / name).string();
    run::write_file_atomically(path, content);
    written.push_back({format, path});
  };
  if (formats & kHtml) write("html", "report.html", html_report(run));
  if (formats & kJunit) write("junit", "junit.xml", junit_report(run));
  if (formats & kMarkdown) write("markdown", "summary.md", markdown_report(run));
  if (formats & kJsonl) write("jsonl", "buckets.jsonl", buckets_jsonl(run));
  return written;
}

std::vector<std::string> write_run_reports(const std::string& run_dir, std::ostream& log) {
  std::vector<std::string> paths;
  try {
    LoadOptions load;
    load.allow_partial = true;
    RunData run = load_run(run_dir, load);
    for (const auto& w :
         write_reports(run, (std::filesystem::path(run_dir) / "report").string(), kAllFormats))
      paths.push_back(w.path);
  } catch (const std::exception& e) {
    log << "WARNING: the reports could not be written (" << e.what() << "); run `crosscheck report "
        << run_dir << "` to retry\n";
    paths.clear();
  }
  return paths;
}

}  // namespace crosscheck::report
