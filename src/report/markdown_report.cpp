// markdown_report.cpp: a Markdown summary of a run for a CI step summary ($GITHUB_STEP_SUMMARY):
// headline, counts per class, root and implementation, the top buckets with their (minimized)
// payload in a fence it cannot close, and the replay command of every finding file.
#include <algorithm>
#include <map>
#include <set>

#include "json/parse.hpp"
#include "report/escape.hpp"
#include "report/writers.hpp"

namespace crosscheck::report {
namespace {

std::string code(const std::string& s, std::size_t max = 0) { return markdown_code(s, false, max); }
std::string cell(const std::string& s, std::size_t max = 200) { return markdown_code(s, true, max); }

std::string list_code(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + code(i, 80);
  return s.empty() ? "none" : s;
}

}  // namespace

std::string markdown_report(const RunData& run, const MarkdownOptions& options) {
  std::string md;
  md += "## crosscheck fuzz: " + markdown_code(run_status(run)) + "\n\n";
  md += "Run folder " + code(run.dir, 200);
  if (run.summary) {
    md += " · seed " + format_count(std::strtod(run.summary->seed.value_or("0").c_str(), nullptr)) + " · " +
          format_fixed(run.summary->elapsed, 1) + " s";
  }
  md += " · implementations " + list_code(run.implementations) + "\n\n";
  md += "Baseline " + (run.baseline.empty() ? std::string() : code(run.baseline, 200) + ": ") +
        baseline_summary(run);
  if (!run.stale_entries.empty()) md += "; entries not seen in this run: " + list_code(run.stale_entries);
  md += "\n\n";

  md +=
      "| inputs generated | sent to adapters | divergent inputs | on contract inputs | buckets | finding "
      "files | "
      "schema coverage |\n|---:|---:|---:|---:|---:|---:|---:|\n";
  const run::Summary& totals = run.totals();
  md += "| " + format_count(static_cast<double>(totals.generated)) + " | " +
        format_count(static_cast<double>(totals.sent)) + " | " +
        format_count(static_cast<double>(totals.divergent_inputs)) + " | " +
        format_count(static_cast<double>(totals.contract_inputs)) + " | " +
        std::to_string(run.buckets.size()) + " | " + std::to_string(run.findings.size()) + " | " +
        coverage_short(run) + " |\n\n";

  // Per class, root and implementation: divergences over every input (summary.json) and buckets.
  std::map<std::string, std::size_t> buckets_by_class, failing_by_class, buckets_by_root, deviating_by_impl;
  for (const auto& b : run.buckets) {
    ++buckets_by_class[core::class_name(b.cls)];
    if (run.fails(b)) ++failing_by_class[core::class_name(b.cls)];
    for (const auto& r : b.roots) ++buckets_by_root[r];
    for (const auto& i : b.blame.deviating) ++deviating_by_impl[i];
  }
  auto by_class = summary_counts(totals.by_class);
  if (!by_class.empty() || !buckets_by_class.empty()) {
    std::set<std::string> keys;
    for (const auto& [k, n] : by_class) keys.insert(k);
    for (const auto& [k, n] : buckets_by_class) keys.insert(k);
    md += "### Per class\n\n| class | divergences | buckets | failing buckets |\n|---|---:|---:|---:|\n";
    for (const auto& k : keys) {
      md += "| " + cell(k) + " | " + format_count(by_class[k]) + " | " + std::to_string(buckets_by_class[k]) +
            " | " + std::to_string(failing_by_class[k]) + " |\n";
    }
    md += "\n";
    auto by_root = summary_counts(totals.by_root);
    std::set<std::string> roots;
    for (const auto& [k, n] : by_root) roots.insert(k);
    for (const auto& [k, n] : buckets_by_root) roots.insert(k);
    md += "### Per root\n\n| root | divergences | buckets |\n|---|---:|---:|\n";
    for (const auto& k : roots)
      md += "| " + cell(k) + " | " + format_count(by_root[k]) + " | " + std::to_string(buckets_by_root[k]) +
            " |\n";
    md += "\n";
    auto by_impl = summary_counts(totals.by_implementation);
    md +=
        "### Per implementation\n\n| implementation | divergences involving it | buckets where it deviates "
        "|\n"
        "|---|---:|---:|\n";
    for (const auto& k : run.implementations) {
      md += "| " + cell(k) + " | " + format_count(by_impl[k]) + " | " + std::to_string(deviating_by_impl[k]) +
            " |\n";
    }
    md += "\n";
    // Layers (summary.json's byLayer; absent in runs written before there were layers).
    auto by_layer = summary_counts(totals.by_layer);
    if (!by_layer.empty()) {
      std::map<std::string, std::size_t> buckets_by_layer;
      for (const auto& b : run.buckets) ++buckets_by_layer[b.divergence.layer];
      md += "### Per layer\n\n| layer | divergences | buckets |\n|---|---:|---:|\n";
      for (const auto& [layer, n] : by_layer)
        md += "| " + cell(layer) + " | " + format_count(n) + " | " + std::to_string(buckets_by_layer[layer]) +
              " |\n";
      md += "\n";
    }
  }

  if (!run.buckets.empty()) {
    std::size_t shown = std::min(options.top_buckets, run.buckets.size());
    md += "### Top buckets (" + std::to_string(shown) + " of " + std::to_string(run.buckets.size()) + ")\n\n";
    for (std::size_t i = 0; i < shown; ++i) {
      const Bucket& b = run.buckets[i];
      const FindingFile& file = run.findings[b.shown];
      const run::Finding& f = b.finding(run.findings);
      md += "#### " + std::to_string(i + 1) + ". " + code(core::class_name(b.cls)) + " (" +
            b.divergence.layer + ") on " + list_code(b.roots) + ": " +
            (b.blame.deviating.empty() ? std::string("-") : list_code(b.blame.deviating)) + " deviates (" +
            code(verdict::basis_name(b.blame.basis)) + ") — " +
            (run.fails(b) && !run.baseline.empty() ? "**new: fails the run**"
             : run.fails(b)                        ? "**fails the run**"
             : b.known                             ? "known"
                                                   : "implementation-defined") +
            "\n\n";
      md += "Bucket " + code(b.id) + ": " + code(b.divergence.detail, 400) + "\n\n";
      md += "Blame: basis " + code(verdict::basis_name(b.blame.basis)) + ", " + code(b.blame.explanation()) +
            "\n\n";
      if (b.known) md += "Known to the baseline: " + list_code(b.known_entries) + "\n\n";
      if (!f.traits.empty()) md += "Input traits: " + list_code(f.traits) + "\n\n";
      md += "Payload, " + std::to_string(f.input.size()) + " bytes";
      if (b.shown_minimized) {
        md += ", minimized from " + std::to_string(file.original.input.size()) + " bytes";
        if (file.reduction) md += " in " + std::to_string(file.reduction->calls) + " adapter calls";
      }
      md += ":\n\n" +
            markdown_fence(f.input, json::is_valid_utf8(f.input) ? "json" : "text", options.payload_chars) +
            "\n";
      md += "| implementation | outcome | diagnostics |\n|---|---|---|\n";
      for (const auto& r : f.results) {
        bool odd = std::find(b.blame.deviating.begin(), b.blame.deviating.end(), r.implementation) !=
                   b.blame.deviating.end();
        md += "| " + cell(r.implementation) + (odd ? " ≠" : "") + " | " + cell(outcome_text(r)) + " | " +
              (r.diagnostics.empty() && !r.message
                   ? std::string()
                   : cell(diagnostics_text(r) + (r.message ? " " + *r.message : ""), 300)) +
              " |\n";
      }
      std::string replay;
      for (std::size_t k : b.files) {
        replay += RunData::replay_command(run.findings[k].path) + "\n";
        if (run.findings[k].minimized) replay += RunData::replay_command(run.findings[k].min_path) + "\n";
      }
      md += "\nReplay:\n\n" + markdown_fence(replay, "sh") + "\n";
    }
  }

  if (!run.findings.empty()) {
    md += "### Every finding file\n\n";
    std::string replay;
    for (const auto& f : run.findings) {
      replay += RunData::replay_command(f.path) + "\n";
      if (f.minimized) replay += RunData::replay_command(f.min_path) + "   # minimized\n";
    }
    md += markdown_fence(replay, "sh") + "\n";
  }

  md += "### Schema\n\n";
  if (run.coverage) {
    const run::CoverageFigures& f = run.coverage->figures;
    md += "Schema coverage " + format_fixed(f.percent(), 1) + "% of the " +
          format_count(static_cast<double>(f.possible_pairs())) +
          " (node, outcome) pairs a payload can reach";
    if (f.impossible_pairs() > 0)
      md += " (" + format_fixed(f.percent_all(), 1) + "% of all " +
            format_count(static_cast<double>(2 * f.tracked)) + "; " +
            format_count(static_cast<double>(f.impossible_pairs())) + " cannot happen)";
    md += "; " + std::to_string(run.coverage->never_accepted.size()) +
          " nodes never in an accepted payload, " + std::to_string(run.coverage->never_rejected.size()) +
          " never in a rejected one (listed in the HTML report and coverage.json).\n\n";
  }
  md += run.skewed_roots.empty()
            ? std::string("No skewed roots: every root was compared on every implementation.\n\n")
            : "Skewed roots (different schema closures, never compared): " + list_code(run.skewed_roots) +
                  "\n\n";
  for (const auto& n : run.notes) md += "> Note: " + code(n, 300) + "\n";
  return md;
}

}  // namespace crosscheck::report
