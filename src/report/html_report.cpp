// html_report.cpp: the self-contained HTML report of a run: status, counts, a roots x implementations
// matrix coloured by outcome, a plot of throughput and findings over the run (inline SVG from
// events.jsonl), every bucket with its (minimized) payload beside each implementation's result and
// the replay commands, every finding file, the skew table, schema coverage and the implementations.
// The sections are here; the plot and the text helpers in detail/ (html_parts.hpp).
//
// Safety: the page loads nothing and runs nothing. It has no script at all, every string from the
// run folder goes through html_text()/attr() (display text, then HTML-escaped), and a strict
// Content-Security-Policy (default-src 'none') stops scripts even if an escaping bug slipped through.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "report/detail/html_parts.hpp"
#include "report/escape.hpp"
#include "report/writers.hpp"
#include "run/finding_file.hpp"

namespace crosscheck::report {
namespace {

using core::Outcome;
using namespace html;

// --- sections -------------------------------------------------------------------------------------

std::string counts_table(const RunData& run) {
  std::map<std::string, std::size_t> buckets_by_class, failing_by_class;
  for (const auto& b : run.buckets) {
    ++buckets_by_class[core::class_name(b.cls)];
    if (run.fails(b)) ++failing_by_class[core::class_name(b.cls)];
  }
  auto by_class = summary_counts(run.totals().by_class);
  std::set<std::string> keys;
  for (const auto& [k, n] : by_class) keys.insert(k);
  for (const auto& [k, n] : buckets_by_class) keys.insert(k);
  std::string s = "<h3>Per class</h3>\n";
  if (keys.empty()) return s + "<p>No divergence.</p>\n";
  s += "<table><tr><th>class</th><th class=\"num\">divergences</th><th class=\"num\">buckets</th><th "
       "class=\"num\">failing buckets</th></tr>\n";
  for (const auto& k : keys) {
    s += "<tr><td>" + text(k) + "</td><td class=\"num\">" + format_count(by_class[k]) +
         "</td><td class=\"num\">" + std::to_string(buckets_by_class[k]) + "</td><td class=\"num\">" +
         std::to_string(failing_by_class[k]) + "</td></tr>\n";
  }
  s += "</table>\n";
  std::map<std::string, std::size_t> deviating;
  for (const auto& b : run.buckets) {
    for (const auto& i : b.blame.deviating) ++deviating[i];
  }
  auto by_impl = summary_counts(run.totals().by_implementation);
  s += "<h3>Per implementation</h3>\n<table><tr><th>implementation</th><th class=\"num\">divergences "
       "involving "
       "it</th><th class=\"num\">buckets where it deviates</th></tr>\n";
  for (const auto& i : run.implementations) {
    s += "<tr><td>" + text(i) + "</td><td class=\"num\">" + format_count(by_impl[i]) +
         "</td><td class=\"num\">" + std::to_string(deviating[i]) + "</td></tr>\n";
  }
  s += "</table>\n";
  return s;
}

std::string matrix(const RunData& run) {
  std::set<std::string> fuzzed;
  bool fuzzed_known = false;
  if (run.summary) {
    fuzzed_known = true;
    fuzzed.insert(run.summary->roots.begin(), run.summary->roots.end());
  }
  std::set<std::string> skewed(run.skewed_roots.begin(), run.skewed_roots.end());
  // One row per root and comparison layer: the layers of the run (summary.json's byLayer), and any
  // layer a bucket has; a run written before layers existed was structural.
  std::set<std::string> layers;
  if (run.summary) {
    for (const auto& [layer, n] : run.summary->by_layer) layers.insert(layer);
  }
  for (const auto& b : run.buckets) layers.insert(b.divergence.layer);
  if (layers.empty()) layers.insert(core::kStructuralLayer);
  std::vector<std::string> layer_order;  // structural first, then canonical, then any other
  for (const char* known : {core::kStructuralLayer, core::kCanonicalLayer}) {
    if (layers.erase(known)) layer_order.push_back(known);
  }
  layer_order.insert(layer_order.end(), layers.begin(), layers.end());
  // The layers that ran on a root: summary.json's "layers" says where each ran (layer 3 only on
  // intercept_response, layer 2 only on roots that are a schema document), and a bucket seen there
  // shows it did. A summary without "layers" (an older crosscheck) does not say: every layer then.
  const bool where_known = run.summary && !run.summary->layers.empty();
  auto ran_on = [&](const std::string& layer, const std::string& root) {
    if (!where_known) return true;
    auto it = run.summary->layers.find(layer);
    if (it != run.summary->layers.end() &&
        std::find(it->second.roots.begin(), it->second.roots.end(), root) != it->second.roots.end())
      return true;
    return std::any_of(run.buckets.begin(), run.buckets.end(), [&](const Bucket& b) {
      return b.divergence.layer == layer && std::find(b.roots.begin(), b.roots.end(), root) != b.roots.end();
    });
  };
  std::string s =
      "<p class=\"legend\">A root has a row for each layer that ran on it. Each cell: the buckets on that "
      "root and layer (structural: decoding; canonical: JSON Schema validation, and layer-inconsistency; "
      "contextual: generated scenarios through the SDKs' interop clients) in which the implementation "
      "deviates: from "
      "the contract's reference, the C++ decoder <code>" +
      text(verdict::kReferenceImplementation) +
      "</code>, for a contract divergence (whatever the majority); from the majority for an "
      "implementation-defined one; \u201cby\u201d names the basis (docs/reports.md). <span "
      "class=\"cell-fail\">failing</span><span "
      "class=\"cell-idef\">implementation-defined only</span><span class=\"cell-known\">known (baseline) "
      "only</span><span class=\"cell-ok\">fuzzed, no "
      "divergence</span><span "
      "class=\"cell-skew\">skewed root (not compared)</span><span class=\"cell-na\">root missing</span><span "
      "class=\"cell-unfuzzed\">not fuzzed</span></p>\n";
  s += "<table class=\"matrix\"><tr><th>root</th><th class=\"layer\">layer</th>";
  for (const auto& i : run.implementations) s += "<th>" + text(i) + "</th>";
  s += "</tr>\n";
  for (const auto& root : run.roots) {
    std::vector<std::string> root_layers;
    for (const auto& layer : layer_order)
      if (ran_on(layer, root)) root_layers.push_back(layer);
    // No layer ran on the root: one row without a layer, its cells "not fuzzed" (or why not).
    const bool none_ran = root_layers.empty();
    if (none_ran) root_layers.push_back("");
    for (const auto& layer : root_layers) {
      s += "<tr><th class=\"root\">" + code(root) + (skewed.count(root) ? " <small>(skewed)</small>" : "") +
           "</th><td class=\"layer\">" + (none_ran ? std::string("\u2014") : text(layer)) + "</td>";
      for (const auto& impl : run.implementations) {
        auto row = run.skew.find(root);
        bool missing = false;
        if (row != run.skew.end()) {
          auto cell = row->second.find(impl);
          missing = cell != row->second.end() && cell->second.empty();
        }
        std::size_t failing = 0, other = 0, known = 0;
        std::set<std::string> bases;  // what the blame of those buckets rests on
        const Bucket* first = nullptr;
        for (const auto& b : run.buckets) {
          if (b.divergence.layer != layer ||
              std::find(b.roots.begin(), b.roots.end(), root) == b.roots.end() ||
              std::find(b.blame.deviating.begin(), b.blame.deviating.end(), impl) == b.blame.deviating.end())
            continue;
          ++(run.fails(b) ? failing : b.known ? known : other);
          bases.insert(verdict::basis_name(b.blame.basis));
          if (!first) first = &b;
        }
        std::string cls, label;
        if (failing) {
          cls = "cell-fail";
          label = std::to_string(failing) + " failing" +
                  (other ? ", " + std::to_string(other) + " impl-def." : "");
        } else if (other) {
          cls = "cell-idef";
          label = std::to_string(other) + " impl-defined" +
                  (known ? ", " + std::to_string(known) + " known" : "");
        } else if (known) {
          cls = "cell-known";
          label = std::to_string(known) + " known";
        } else if (missing) {
          cls = "cell-na";
          label = "\u2014";
        } else if (skewed.count(root)) {
          cls = "cell-skew";
          label = "skewed";
        } else if (none_ran || (fuzzed_known && !fuzzed.count(root))) {
          cls = "cell-unfuzzed";
          label = "not fuzzed";
        } else {
          cls = "cell-ok";
          label = "ok";
        }
        s += "<td class=\"" + cls + "\">";
        if (first)
          s += "<a href=\"#" + anchor(*first) + "\">" + text(label) + "</a>";
        else
          s += text(label);
        if (!bases.empty()) {
          std::string by;
          for (const auto& x : bases) by += (by.empty() ? "" : ", ") + x;
          s += "<br><small class=\"basis\">by " + text(by) + "</small>";
        }
        s += "</td>";
      }
      s += "</tr>\n";
    }
  }
  return s + "</table>\n";
}

std::string bucket_section(const RunData& run, const Bucket& b, std::size_t number) {
  const FindingFile& file = run.findings[b.shown];
  const run::Finding& f = b.finding(run.findings);
  bool fails = run.fails(b);
  std::string kind = fails ? "fail" : b.known ? "known" : "idef";
  std::string s = "<section class=\"bucket " + kind + "\" id=\"" + anchor(b) + "\">\n";
  s += "<h3>" + std::to_string(number) + ". <span class=\"badge " + kind + "\">" +
       (fails && !run.baseline.empty() ? "new: fails the run"
        : fails                        ? "fails the run"
        : b.known                      ? "known"
                                       : "implementation-defined") +
       "</span>" + text(core::class_name(b.cls)) + " \u00b7 bucket " + code(b.id) + "</h3>\n";
  s += "<p>" + text(b.divergence.detail, 2000) + "</p>\n<p class=\"caption\">seen on " +
       std::to_string(b.roots.size()) + (b.roots.size() == 1 ? " root: " : " roots: ") + code_list(b.roots) +
       "<br>";
  if (b.known) {
    s += "known to the baseline: ";
    for (std::size_t i = 0; i < b.known_entries.size(); ++i)
      s += (i ? "; " : "") + text(b.known_entries[i], 500);
    s += "<br>";
  }
  if (!b.blame.deviating.empty()) {
    s += "deviating: ";
    for (std::size_t i = 0; i < b.blame.deviating.size(); ++i)
      s += (i ? ", " : "") + std::string("<b>") + text(b.blame.deviating[i]) + "</b>";
    s += " (basis <span class=\"basis\">" + text(verdict::basis_name(b.blame.basis)) +
         "</span>: " + text(b.blame.explanation()) + ") \u00b7 ";
  }
  s += "involved: ";
  for (std::size_t i = 0; i < b.divergence.implementations.size(); ++i)
    s += (i ? ", " : "") + text(b.divergence.implementations[i]);
  if (!f.traits.empty()) {
    s += " \u00b7 implementation-defined traits of the input: ";
    for (std::size_t i = 0; i < f.traits.size(); ++i) s += (i ? ", " : "") + code(f.traits[i]);
  }
  s += " \u00b7 " + std::to_string(b.files.size()) + " finding file(s)</p>\n";
  s += "<div class=\"pair\"><div><div class=\"caption\">Payload (root " + code(f.root) + "), " +
       format_count(static_cast<double>(f.input.size())) + " bytes";
  if (b.shown_minimized) {
    s += ", minimized from " + format_count(static_cast<double>(file.original.input.size())) + " bytes";
    if (file.reduction)
      s += " in " + format_count(static_cast<double>(file.reduction->calls)) + " adapter calls";
    s += " (" + text(file.min_path) + ")";
  } else {
    s += " (" + text(file.path) +
         (file.minimized ? "; its minimized version left this bucket" : ", not minimized") + ")";
  }
  s += "</div>\n<pre class=\"payload\">" + block(f.input, 65536) + "</pre></div>\n";
  s += "<table "
       "class=\"results\"><tr><th>implementation</th><th>outcome</th><th>diagnostics</th><th>re-encoding / "
       "message</th></tr>\n";
  for (const auto& r : f.results) {
    bool odd = std::find(b.blame.deviating.begin(), b.blame.deviating.end(), r.implementation) !=
               b.blame.deviating.end();
    s += std::string("<tr") + (odd ? " class=\"deviating\"" : "") + "><td>" + text(r.implementation) +
         "</td><td>" + outcome_cell(r) + "</td><td>";
    for (const auto& d : r.diagnostics) {
      s += code(d.code) + " at " + code(d.path.empty() ? "(root)" : d.path, 300) +
           (d.severity == "error" ? "" : " <small>" + text(d.severity) + "</small>") + "<br>";
    }
    s += "</td><td>";
    if (r.encoded) s += "<code>" + text(*r.encoded, 1000) + "</code>";
    if (r.encode_error) s += "<div>encode error: " + text(*r.encode_error, 1000) + "</div>";
    if (r.message) s += "<div>" + text(*r.message, 1000) + "</div>";
    if (!r.stderr_tail.empty())
      s += "<details><summary>stderr</summary><pre>" + block(r.stderr_tail, 8000) + "</pre></details>";
    s += "</td></tr>\n";
  }
  s += "</table></div>\n<h4>Replay</h4>\n<pre class=\"replay\">";
  for (std::size_t k : b.files) {
    s += block(RunData::replay_command(run.findings[k].path)) + "\n";
    if (run.findings[k].minimized) s += block(RunData::replay_command(run.findings[k].min_path)) + "\n";
  }
  s += "</pre>\n<details><summary>signature</summary><code>" + text(b.signature, 4000) +
       "</code></details>\n</section>\n";
  return s;
}

std::string findings_table(const RunData& run) {
  if (run.findings.empty()) return "<p>No finding files.</p>\n";
  std::string s =
      "<table><tr><th>file</th><th>root</th><th>classes</th><th "
      "class=\"num\">bytes</th><th>replay</th></tr>\n";
  for (const auto& f : run.findings) {
    std::set<std::string> classes;
    for (const auto& d : f.original.divergences) classes.insert(core::class_name(d.cls));
    std::string cls;
    for (const auto& c : classes) cls += (cls.empty() ? "" : ", ") + c;
    s += "<tr><td>" + code(f.name) + "</td><td>" + code(f.original.root) + "</td><td>" + text(cls) +
         "</td><td class=\"num\">" + format_count(static_cast<double>(f.original.input.size())) +
         (f.minimized ? " \u2192 " + format_count(static_cast<double>(f.minimized->input.size()))
                      : std::string()) +
         "</td><td><code>" + text(RunData::replay_command(f.path)) + "</code>";
    if (f.minimized) s += "<br><code>" + text(RunData::replay_command(f.min_path)) + "</code>";
    s += "</td></tr>\n";
  }
  return s + "</table>\n";
}

std::string skew_table(const RunData& run) {
  if (run.skew.empty())
    return "<p>The skew table was not recorded (summary.json missing or from a partial run).</p>\n";
  std::set<std::string> skewed(run.skewed_roots.begin(), run.skewed_roots.end());
  std::string s =
      "<p>Closure hash of each root's schema per implementation (same hash: same schema documents; "
      "\u2014: the implementation lacks the root). Implementations are compared only where the hashes "
      "agree; " +
      std::to_string(skewed.size()) + " skewed root(s).</p>\n<table><tr><th>root</th>";
  for (const auto& i : run.implementations) s += "<th>" + text(i) + "</th>";
  s += "</tr>\n";
  for (const auto& [root, row] : run.skew) {
    s +=
        std::string("<tr") + (skewed.count(root) ? " class=\"skewed\"" : "") + "><td>" + code(root) + "</td>";
    for (const auto& i : run.implementations) {
      auto it = row.find(i);
      s += "<td>" + (it == row.end() || it->second.empty() ? std::string("\u2014") : code(it->second)) +
           "</td>";
    }
    s += "</tr>\n";
  }
  return s + "</table>\n";
}

std::string coverage_section(const RunData& run) {
  if (!run.coverage) return "<p>coverage.json is missing.</p>\n";
  const run::CoverageFigures& f = run.coverage->figures;
  auto n = [](std::uint64_t x) { return format_count(static_cast<double>(x)); };
  std::string s = "<p><b>" + format_fixed(f.percent(), 1) + "%</b> of the " + n(f.possible_pairs()) +
                  " (node, outcome) pairs a payload can reach: " + n(f.reached_accepted) + " of " +
                  n(f.possible_accepted) + " outcome-deciding schema nodes seen in an accepted payload, " +
                  n(f.reached_rejected) + " of " + n(f.possible_rejected) + " in a rejected one (" +
                  n(f.tracked) + " nodes tracked).";
  if (f.impossible_pairs() > 0)
    s += " Of all " + n(2 * f.tracked) + " pairs, " + n(f.impossible_pairs()) +
         " cannot happen, whatever the payload (listed below): counting them, " +
         format_fixed(f.percent_all(), 1) + "%.";
  else if (!f.has_possible)
    s += " (coverage.json of an older crosscheck: pairs that cannot happen are not told apart.)";
  s += "</p>\n";
  // Unreached nodes are always listed, the impossible ones only when there are some.
  auto list = [&](const std::vector<std::string>& nodes, bool impossible, const char* label) {
    if (nodes.empty() && impossible) return;
    s += "<details><summary>" + std::to_string(nodes.size()) + " node(s) " + label + "</summary><ul>\n";
    std::size_t shown = 0;
    for (const auto& x : nodes) {
      if (++shown > 5000) break;
      s += "<li>" + code(x, 500) + "</li>\n";
    }
    s += "</ul></details>\n";
  };
  const run::CoverageFile& c = *run.coverage;
  list(c.never_accepted, false, "never in an accepted payload");
  list(c.never_rejected, false, "never in a rejected payload");
  list(c.never_visited, true,
       "no payload can visit (only below a discriminated union's arm without a tag of its own): both "
       "outcomes cannot happen");
  list(c.always_rejected, true,
       "only rejected payloads can visit (no value passes them, and nothing on the way absorbs the "
       "failure): the accepted outcome cannot happen");
  return s;
}

std::string implementations_section(const RunData& run) {
  if (!run.summary) return "<p>Not recorded (summary.json missing or from a partial run).</p>\n";
  const char* headings[] = {
      "name",         "reportedName", "language", "version",        "languageVersion", "schemaManifestSha256",
      "sourceCommit", "schemaBundle", "roots",    "reportsWarnings"};
  std::string s = "<table><tr>";
  for (const char* k : headings) s += "<th>" + text(k) + "</th>";
  s += "</tr>\n";
  for (const auto& id : run.summary->implementations) {
    const std::string cells[] = {id.name,
                                 id.reported_name,
                                 id.language,
                                 id.version,
                                 id.language_version,
                                 id.schema_manifest_sha256.value_or(""),
                                 id.source_commit.value_or(""),
                                 id.schema_bundle.value_or(""),
                                 std::to_string(id.roots),
                                 id.reports_warnings ? "yes" : "no"};
    s += "<tr>";
    for (const auto& cell : cells) s += "<td>" + text(cell, 300) + "</td>";
    s += "</tr>\n";
  }
  return s + "</table>\n";
}

}  // namespace

std::string html_report(const RunData& run) {
  std::string status = run_status(run);
  std::string status_class = run.partial ? "partial" : status.rfind("passed", 0) == 0 ? "pass" : "fail";
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // First in <head>, before anything derived from the run: no script, frame, font or fetch can happen.
  h +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "img-src data:; base-uri 'none'; form-action 'none'\">\n";
  h += "<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"viewport\" "
       "content=\"width=device-width, "
       "initial-scale=1\">\n";
  h += "<title>crosscheck report</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  h += "<h1>crosscheck report</h1>\n<div class=\"status " + status_class + "\">" + text(status) + "</div>\n";
  h += "<dl class=\"facts\"><dt>run folder</dt><dd>" + code(run.dir, 500) + "</dd>";
  if (run.summary) {
    h += "<dt>seed</dt><dd>" + text(run.summary->seed.value_or("?")) + "</dd>";
    h += "<dt>run time</dt><dd>" + format_fixed(run.summary->elapsed, 1) + " s</dd>";
    const std::string& version = run.summary->crosscheck_version;
    h += "<dt>crosscheck</dt><dd>" + text(version.empty() ? "?" : version) + "</dd>";
    h += "<dt>exit code</dt><dd>" + std::to_string(run.verdict().exit_code()) +
         (run.strict ? " (--strict: implementation-defined divergences fail too)" : "") + "</dd>";
  }
  h += "<dt>baseline</dt><dd>" + (run.baseline.empty() ? std::string() : code(run.baseline, 500) + ": ") +
       text(baseline_summary(run));
  if (!run.stale_entries.empty()) {
    h += "; entries not seen in this run: ";
    for (std::size_t i = 0; i < run.stale_entries.size(); ++i)
      h += (i ? ", " : "") + code(run.stale_entries[i], 200);
  }
  h += "</dd>";
  h += "<dt>implementations</dt><dd>";
  for (std::size_t i = 0; i < run.implementations.size(); ++i)
    h += (i ? ", " : "") + code(run.implementations[i]);
  h += "</dd></dl>\n";
  for (const auto& n : run.notes) h += "<p class=\"note\">" + text(n, 1000) + "</p>\n";
  h += "<nav><a href=\"#matrix\">matrix</a><a href=\"#plot\">over time</a><a href=\"#buckets\">buckets</a><a "
       "href=\"#findings\">finding files</a><a href=\"#skew\">schema skew</a><a href=\"#coverage\">schema "
       "coverage</a><a "
       "href=\"#implementations\">implementations</a></nav>\n";

  h += "<h2 id=\"summary\">Summary</h2>\n<table><tr><th class=\"num\">inputs generated</th><th "
       "class=\"num\">sent to "
       "adapters</th><th class=\"num\">divergent inputs</th><th class=\"num\">on contract inputs</th><th "
       "class=\"num\">buckets</th><th class=\"num\">finding files</th><th class=\"num\">schema "
       "coverage</th></tr>\n<tr><td class=\"num\">" +
       format_count(static_cast<double>(run.totals().generated)) + "</td><td class=\"num\">" +
       format_count(static_cast<double>(run.totals().sent)) + "</td><td class=\"num\">" +
       format_count(static_cast<double>(run.totals().divergent_inputs)) + "</td><td class=\"num\">" +
       format_count(static_cast<double>(run.totals().contract_inputs)) + "</td><td class=\"num\">" +
       std::to_string(run.buckets.size()) + "</td><td class=\"num\">" + std::to_string(run.findings.size()) +
       "</td><td class=\"num\">" + text(coverage_short(run)) + "</td></tr></table>\n";
  h += counts_table(run);

  h += "<h2 id=\"matrix\">Roots \u00d7 implementations</h2>\n" + matrix(run);
  h += "<h2 id=\"plot\">Throughput and findings over the run</h2>\n" + plot(run);

  h += "<h2 id=\"buckets\">Buckets</h2>\n";
  if (run.buckets.empty()) h += "<p>No divergence was found.</p>\n";
  h += "<p>One section per bucket (divergences with the same signature), failing ones first. The payload "
       "shown is "
       "the smallest of the bucket's finding files, minimized when the reducer kept the bucket; rows marked "
       "\u2260 "
       "are the implementations that deviate. Escapes such as <span class=\"esc\">\\xff</span> (a byte that "
       "is not "
       "UTF-8) and <span class=\"esc\">\\u0000</span> (a control or invisible character) are highlighted; "
       "the exact "
       "bytes are in the finding file.</p>\n";
  for (std::size_t i = 0; i < run.buckets.size(); ++i) h += bucket_section(run, run.buckets[i], i + 1);

  h += "<h2 id=\"findings\">Finding files</h2>\n" + findings_table(run);
  h += "<h2 id=\"skew\">Schema skew</h2>\n" + skew_table(run);
  h += "<h2 id=\"coverage\">Schema coverage</h2>\n" + coverage_section(run);
  h += "<h2 id=\"implementations\">Implementations</h2>\n" + implementations_section(run);
  h += "<p class=\"caption\">Written by crosscheck " + text(CROSSCHECK_VERSION) +
       " (crosscheck report). The page loads nothing and runs no script.</p>\n</body>\n</html>\n";
  return h;
}

}  // namespace crosscheck::report
