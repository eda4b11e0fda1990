// run_data.cpp: loading a run folder for the reports, and grouping its findings into buckets.
#include "report/run_data.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "baseline/baseline.hpp"
#include "baseline/classify.hpp"
#include "baseline/run_findings.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "report/escape.hpp"
#include "run/finding_files.hpp"
#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "run/replay.hpp"
#include "util/result.hpp"

namespace crosscheck::report {
namespace {

namespace fs = std::filesystem;
using core::DivergenceClass;

/// A finding file, refused (exit 2) naming it, the JSON Pointer and the expectation when it does not
/// fit its schema or comes from another version.
run::Finding load_finding(const fs::path& p) {
  auto f = run::FindingStore::load(p.string());
  if (!f.ok()) throw Fatal(f.error());
  return std::move(f.value());
}

/// Sorts the buckets with a baseline file now: known ones get the entries that cover them.
void classify_now(RunData& data, const std::string& path) {
  std::map<std::string, Bucket*> by_id;
  for (auto& b : data.buckets) by_id[b.id] = &b;
  baseline::Baseline known = baseline::load_baseline(path);
  baseline::RunFolder folder = baseline::load_run_folder(data.dir);
  auto c = baseline::classify(known, baseline::occurrences({folder}), folder.implementations);
  std::map<std::string, const baseline::Entry*> entries;
  for (const auto& e : known.entries) entries[e.id] = &e;
  for (auto& b : data.buckets) {
    b.known = false;
    b.known_entries.clear();
  }
  for (const auto& r : c.buckets) {
    auto it = by_id.find(r.bucket);
    if (it != by_id.end()) it->second->reference_wrong = r.reference_wrong;
    if (r.is_new || it == by_id.end()) continue;
    it->second->known = true;
    for (const auto& id : r.entries) {
      const baseline::Entry* e = entries.count(id) ? entries[id] : nullptr;
      it->second->known_entries.push_back(
          id + (e ? ": " + e->reason + (e->link.empty() ? "" : " (" + e->link + ")") : ""));
    }
  }
  data.baseline = path;
  data.stale_entries = c.stale;
}

/// Marks the buckets the baseline knows (docs/reports.md, "Which baseline a report uses"): --baseline
/// sorts them now; otherwise the check recorded in RUN_DIR/baseline-check.json (by `fuzz --baseline`,
/// or `baseline check --json` as the CI scripts do) is the run's verdict, as long as it covers every
/// bucket of the folder. Buckets found after the check (a resumed or merged run) are sorted again
/// against the baseline it names, or count as new when that file cannot be read here.
void apply_baseline(RunData& data, const fs::path& root, const LoadOptions& options) {
  if (options.no_baseline) return;
  if (!options.baseline.empty()) {
    classify_now(data, options.baseline);
    data.baseline_origin = "--baseline";
    return;
  }
  const fs::path check_file = root / run::kBaselineCheckFile;
  std::optional<baseline::RecordedCheck> check = baseline::read_baseline_check(root);
  if (!check) return;
  const std::string& named = check->baseline;
  std::set<std::string> listed;
  for (const auto& k : check->buckets) listed.insert(k.bucket);
  std::size_t missing = 0;
  for (const auto& b : data.buckets) missing += !listed.count(b.id);
  if (missing) {
    std::string why = check_file.string() + " (the check against " + named + ") does not list " +
                      std::to_string(missing) + " bucket(s) found after it (a resumed or merged run)";
    std::error_code ec;
    if (!named.empty() && fs::is_regular_file(named, ec)) {
      try {
        classify_now(data, named);
        data.baseline_origin = "baseline-check.json, sorted again";
        data.notes.push_back(why + ": every bucket was sorted again against " + named);
        return;
      } catch (const Fatal& e) {
        why += "; " + named + " cannot be used (" + e.what() + ")";
      }
    } else {
      why += "; " + (named.empty() ? std::string("it names no baseline") : named + " cannot be read here");
    }
    data.notes.push_back(why + ": they count as new; pass --baseline FILE to sort them");
  }
  std::map<std::string, Bucket*> by_id;
  for (auto& b : data.buckets) by_id[b.id] = &b;
  data.baseline = named;
  data.baseline_origin = "baseline-check.json";
  for (const auto& k : check->buckets) {
    auto it = by_id.find(k.bucket);
    if (it == by_id.end()) continue;
    it->second->reference_wrong = k.reference_wrong;
    if (!k.known) continue;
    it->second->known = true;
    it->second->known_entries.insert(it->second->known_entries.end(), k.entries.begin(), k.entries.end());
  }
  data.stale_entries.insert(data.stale_entries.end(), check->stale.begin(), check->stale.end());
}

void add_unique(std::vector<std::string>& list, const std::string& s) {
  if (!s.empty() && std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
}

}  // namespace

const run::Finding& Bucket::finding(const std::vector<FindingFile>& all) const {
  const FindingFile& f = all.at(shown);
  return shown_minimized && f.minimized ? *f.minimized : f.original;
}

std::string RunData::replay_command(const std::string& path) { return run::replay_command(path); }

verdict::Verdict RunData::verdict() const {
  verdict::Verdict v;
  v.strict = strict;
  if (!baseline.empty()) v.baseline = baseline;
  v.stale = stale_entries.size();
  for (const auto& b : buckets) v.add_bucket(b.known, b.implementation_defined);
  return v;
}

const run::Summary& RunData::totals() const {
  static const run::Summary kNone;
  return summary ? *summary : kNone;
}

RunData load_run(const std::string& dir, const LoadOptions& options) {
  RunData data;
  data.dir = dir;
  const fs::path root(dir);
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    throw Fatal(dir + ": not a folder (expected the --out folder of crosscheck fuzz)");

  const fs::path run_file = root / run::kRunFile;
  auto config = run::read_run_config(root);
  if (!config) {
    throw Fatal(
        run_file.string() +
        ": missing: not a crosscheck fuzz output folder (crosscheck fuzz --out DIR writes run.json first)");
  }
  data.run = std::move(*config);

  const fs::path summary_file = root / run::kSummaryFile;
  data.summary = run::read_summary(root);
  if (!data.summary) {
    if (!options.allow_partial) {
      throw Fatal(summary_file.string() +
                  ": missing: the run has not finished (interrupted, killed or still running); run the same "
                  "crosscheck fuzz command again to finish it, or pass --partial to report what is there");
    }
    data.partial = true;
    data.notes.push_back("summary.json is missing: the run did not finish; figures come from the event log");
  } else if (data.summary->interrupted) {
    data.notes.push_back(
        "the run was interrupted (Ctrl-C or a signal) before its time or input budget; run the "
        "same crosscheck fuzz command to resume it");
  }

  // A layer-3 run (scenarios run) has no schema coverage and no event log; its payloads are rows.
  const bool scenarios = data.run.command == run::kScenariosCommand;
  if (scenarios)
    data.notes.push_back(
        "a crosscheck scenarios run (layer 3): the inputs are scenario rows (generated = rows read, sent = "
        "rows "
        "run, the others skew) and there is no schema coverage");
  const fs::path coverage_file = root / run::kCoverageFile;
  data.coverage = run::read_coverage(root);
  if (!data.coverage && !data.partial && !scenarios) {
    throw Fatal(coverage_file.string() +
                ": missing: the run folder is incomplete (summary.json exists, "
                "so crosscheck fuzz wrote coverage.json; it was removed)");
  }

  const fs::path events_file = root / run::kEventLogFile;
  if (fs::exists(events_file, ec)) {
    data.events = run::read_events(events_file.string());
    if (data.events.partial_last_line)
      data.notes.push_back("events.jsonl ends in a cut line (a writer was killed mid-line); it was skipped");
    if (data.events.skipped > (data.events.partial_last_line ? 1u : 0u))
      data.notes.push_back(std::to_string(data.events.skipped) +
                           " unreadable line(s) of events.jsonl were skipped");
  } else if (!scenarios) {
    data.notes.push_back("no events.jsonl (the run predates the event log): no plot over time");
  }

  // Findings, each paired with its minimized version.
  const fs::path findings_dir = root / run::kFindingsDir;
  if (!fs::is_directory(findings_dir, ec)) {
    throw Fatal(findings_dir.string() +
                ": missing: the run folder is incomplete (crosscheck fuzz creates it "
                "when it starts)");
  }
  for (const auto& listed : run::list_finding_files(findings_dir)) {
    FindingFile f;
    f.name = listed.name;
    f.path = listed.path;
    f.original = load_finding(listed.path);
    if (listed.min_path) {
      f.minimized = load_finding(*listed.min_path);
      f.reduction = f.minimized->reduction;
      f.min_path = *listed.min_path;
    }
    if (listed.orphan_minimized)
      data.notes.push_back("findings/" + listed.name +
                           " has no original beside it (removed?): the minimized finding stands for itself");
    data.findings.push_back(std::move(f));
  }

  // Buckets.
  std::map<std::string, std::size_t> index;
  for (std::size_t k = 0; k < data.findings.size(); ++k) {
    const FindingFile& f = data.findings[k];
    for (const auto& d : f.original.divergences) {
      auto [it, fresh] = index.emplace(d.bucket, data.buckets.size());
      if (fresh) {
        Bucket b;
        b.id = d.bucket;
        b.cls = d.cls;
        b.root = f.original.root;
        b.signature = d.signature;
        b.shown = k;
        data.buckets.push_back(std::move(b));
      }
      Bucket& b = data.buckets[it->second];
      b.implementation_defined = b.implementation_defined && d.implementation_defined;
      if (std::find(b.files.begin(), b.files.end(), k) == b.files.end()) b.files.push_back(k);
      if (std::find(b.roots.begin(), b.roots.end(), f.original.root) == b.roots.end())
        b.roots.push_back(f.original.root);
    }
  }
  // The roots each bucket was seen on, files or not (summary.json; a bucket's files are capped).
  const auto& bucket_roots = data.totals().bucket_roots;
  for (Bucket& b : data.buckets) {
    auto more = bucket_roots.find(b.id);
    if (more == bucket_roots.end()) continue;
    for (const auto& r : more->second) {
      if (std::find(b.roots.begin(), b.roots.end(), r) == b.roots.end()) b.roots.push_back(r);
    }
  }
  for (Bucket& b : data.buckets) {
    std::size_t best = SIZE_MAX;
    for (std::size_t k : b.files) {
      const FindingFile& f = data.findings[k];
      bool min_has =
          f.minimized && std::any_of(f.minimized->divergences.begin(), f.minimized->divergences.end(),
                                     [&](const auto& d) { return d.bucket == b.id; });
      std::size_t size = min_has ? f.minimized->input.size() : f.original.input.size();
      if (size < best) {
        best = size;
        b.shown = k;
        b.shown_minimized = min_has;
      }
    }
    std::sort(b.roots.begin(), b.roots.end());
    const run::Finding& shown = b.finding(data.findings);
    b.root = shown.root;
    for (const auto& d : shown.divergences) {
      if (d.bucket == b.id) {
        b.divergence = d;
        break;
      }
    }
  }
  data.strict = data.totals().strict;
  apply_baseline(data, root, options);
  for (Bucket& b : data.buckets)
    b.blame = verdict::blame(b.divergence, b.finding(data.findings).results, {b.reference_wrong});
  std::stable_sort(data.buckets.begin(), data.buckets.end(), [&](const Bucket& a, const Bucket& b) {
    bool fa = data.fails(a), fb = data.fails(b);
    if (fa != fb) return fa;
    if (a.known != b.known) return b.known;  // new implementation-defined before known
    if (core::class_rank(a.cls) != core::class_rank(b.cls))
      return core::class_rank(a.cls) < core::class_rank(b.cls);
    if (a.files.size() != b.files.size()) return a.files.size() > b.files.size();
    return std::tie(a.roots, a.id) < std::tie(b.roots, b.id);
  });

  // Who, where, and which roots.
  for (const auto& id : data.totals().implementations) add_unique(data.implementations, id.name);
  for (auto it = data.events.events.rbegin(); it != data.events.events.rend(); ++it) {
    if (it->name != "start") continue;
    if (const json::Value* impls = it->fields.find("implementations"); impls && impls->is_array()) {
      for (const auto& i : impls->items()) {
        if (i.is_string()) add_unique(data.implementations, i.string_value());
      }
    }
    break;
  }
  for (const auto& f : data.findings) {
    for (const auto& r : f.original.results) add_unique(data.implementations, r.implementation);
  }
  data.skew = data.totals().skew_table;
  data.skewed_roots = data.totals().skewed_roots;
  std::set<std::string> roots;
  for (const auto& [r, row] : data.skew) roots.insert(r);
  roots.insert(data.totals().roots.begin(), data.totals().roots.end());
  roots.insert(data.run.roots.begin(), data.run.roots.end());
  for (const auto& b : data.buckets) roots.insert(b.roots.begin(), b.roots.end());
  data.roots.assign(roots.begin(), roots.end());
  return data;
}

}  // namespace crosscheck::report
