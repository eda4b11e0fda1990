// writers.hpp: the reports made from a run folder (docs/reports.md): a self-contained HTML page,
// JUnit XML (one test case per bucket), a Markdown summary for a CI step summary, and one JSON line
// per bucket. Every string that comes from the folder is treated as hostile (escape.hpp).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "report/run_data.hpp"

namespace crosscheck::report {

std::string html_report(const RunData& run);
std::string junit_report(const RunData& run);

struct MarkdownOptions {
  std::size_t top_buckets = 10;      ///< buckets shown with their payload
  std::size_t payload_chars = 2000;  ///< a step summary is limited to 1 MiB
};
std::string markdown_report(const RunData& run, const MarkdownOptions& options = {});
/// One JSON object per bucket: id, class, root, implementations, deviating with the basis of that
/// blame (verdict/blame.hpp) and the reference it was measured against, implementationDefined, fails,
/// detail, files, shown (file and whether minimized), replay commands.
std::string buckets_jsonl(const RunData& run);

enum Format : unsigned { kHtml = 1, kJunit = 2, kMarkdown = 4, kJsonl = 8, kAllFormats = 15 };
/// "html,junit,markdown,jsonl" or "all" -> bits; Fatal naming the unknown word otherwise.
unsigned parse_formats(const std::string& list);

struct WrittenReport {
  std::string format;  ///< "html", ...
  std::string path;
};
/// Writes the chosen reports into `out_dir` (created; each file atomically): report.html, junit.xml,
/// summary.md, buckets.jsonl.
std::vector<WrittenReport> write_reports(const RunData& run, const std::string& out_dir, unsigned formats);

/// The end of `crosscheck fuzz`: every report into RUN_DIR/report/; returns their paths (report.html
/// first). Never throws: reports that cannot be written are a warning on `log` (and no paths), the
/// run's findings are already safe.
std::vector<std::string> write_run_reports(const std::string& run_dir, std::ostream& log);

// Small shared helpers of the writers.
std::string format_count(double n);  ///< "12345" -> "12,345"
std::string format_fixed(double x, int decimals);
/// "accepted", "rejected", "accepted (2 warnings)", ...
std::string outcome_text(const core::ImplResult& r);
/// "unknown_enum at /kind; missing at /x" (display text, not yet escaped for a format).
std::string diagnostics_text(const core::ImplResult& r);
/// Number of divergences per key of one of summary.json's tables (by class, root, implementation).
std::map<std::string, double> summary_counts(const run::Counts& counts);
/// Schema coverage of the run, from coverage.json (summary.json's coveragePercent when it is absent):
/// "100.0%" of the pairs a payload can reach, plus " (98.7% of all pairs)" when some cannot happen.
std::string coverage_short(const RunData& run);
/// What the baseline did to this report, after its path: "2 known bucket(s), 1 new failing one (the
/// check recorded in baseline-check.json)", or, without a baseline, that known divergences fail too.
std::string baseline_summary(const RunData& run);
/// "FAILED", "passed", "INCOMPLETE" and the reason in a few words.
std::string run_status(const RunData& run);

}  // namespace crosscheck::report
