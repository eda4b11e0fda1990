// command_report.cpp: `crosscheck report RUN_DIR`, the HTML, JUnit, Markdown and JSON-lines
// reports of a fuzz run folder (src/report, docs/reports.md).
#include <filesystem>
#include <iostream>

#include "cli/broken_rules.hpp"
#include "cli/command.hpp"
#include "report/issue_drafts.hpp"
#include "report/run_data.hpp"
#include "report/writers.hpp"
#include "run/json_file.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

struct ReportOptions {
  std::string dir;
  std::string formats = "all";
  std::string out;
  bool partial = false;
  std::string baseline;
  bool no_baseline = false;
  std::string issues;
  bool issues_implementation_defined = false;
};

/// --issues DIR: the issue drafts alone (report/issue_drafts.hpp), and their index.
int write_issue_drafts(const ReportOptions& o, const report::RunData& run) {
  report::IssueDraftOptions options;
  options.implementation_defined = o.issues_implementation_defined;
  options.rules = shipped_broken_rules();
  const auto drafts = report::issue_drafts(run, options);
  std::error_code ec;
  std::filesystem::create_directories(o.issues, ec);
  if (ec) throw Fatal("--issues " + o.issues + ": cannot create the folder: " + ec.message());
  for (const auto& d : drafts)
    run::write_file_atomically((std::filesystem::path(o.issues) / d.file).string(), d.text);
  const std::string index = (std::filesystem::path(o.issues) / "index.md").string();
  run::write_file_atomically(index, report::issue_index(run, drafts));
  std::cout << report::run_status(run) << "\n"
            << "  " << drafts.size() << " issue drafts (one per deviating SDK and failing or known "
            << (o.issues_implementation_defined ? "bucket" : "contract bucket") << ") in " << o.issues << "\n"
            << "  index: " << index << "\n";
  return kExitClean;
}

int make_report(const ReportOptions& o) {
  unsigned formats = report::parse_formats(o.formats);
  report::LoadOptions load;
  load.allow_partial = o.partial;
  load.baseline = o.baseline;
  load.no_baseline = o.no_baseline;
  report::RunData run = report::load_run(o.dir, load);
  if (!o.issues.empty()) return write_issue_drafts(o, run);
  std::string out = o.out.empty() ? (std::filesystem::path(o.dir) / "report").string() : o.out;
  auto written = report::write_reports(run, out, formats);
  std::cout << report::run_status(run) << "\n";
  std::cout << "  baseline: " << (run.baseline.empty() ? "" : run.baseline + ": ")
            << report::baseline_summary(run) << "\n";
  for (const auto& n : run.notes) std::cout << "  note: " << n << "\n";
  for (const auto& w : written) std::cout << "  " << w.format << ": " << w.path << "\n";
  return kExitClean;
}

const Registration kReport{CommandSpec{
    "report", "HTML, JUnit XML, Markdown and JSON-lines reports of a fuzz run folder",
    "  crosscheck report crosscheck-out/                         # all reports into crosscheck-out/report/\n"
    "  crosscheck report nightly/ --format junit,markdown --out ci-reports/\n"
    "  cat nightly/report/summary.md >> \"$GITHUB_STEP_SUMMARY\"\n"
    "  crosscheck report --partial nightly/       # a run that was killed before it finished\n"
    "  crosscheck report --baseline tests/data/baseline/known.json nightly/   # known buckets do not fail\n"
    "  crosscheck report --issues drafts/ nightly/   # an issue draft per deviating SDK and bucket\n"
    "  crosscheck report --no-baseline nightly/   # ignore nightly/baseline-check.json: known buckets fail "
    "too",
    [](CLI::App& sub) {
      auto o = std::make_shared<ReportOptions>();
      sub.add_option("run_dir", o->dir, "The --out folder of crosscheck fuzz")->required();
      sub.add_option("--format", o->formats, "Comma-separated: html, junit, markdown, jsonl, or all")
          ->capture_default_str();
      sub.add_option("--out", o->out, "Folder for the reports (default RUN_DIR/report)");
      sub.add_flag("--partial", o->partial,
                   "Report a run without summary.json (interrupted or still running) from what is there");
      auto* b = sub.add_option(
          "--baseline", o->baseline,
          "Known divergences (crosscheck-baseline/1): their buckets are shown as known and do not fail "
          "(default: the check recorded in RUN_DIR/baseline-check.json by fuzz --baseline or the CI "
          "scripts, if any)");
      sub.add_option(
          "--issues", o->issues,
          "Write Markdown issue drafts instead (one per deviating SDK and failing or known bucket, "
          "with a reproducer) into this folder");
      sub.add_flag("--issues-implementation-defined", o->issues_implementation_defined,
                   "With --issues: implementation-defined buckets too");
      sub.add_flag("--no-baseline", o->no_baseline,
                   "Ignore any recorded baseline check: every contract bucket fails")
          ->excludes(b);
      return [o] { return make_report(*o); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
