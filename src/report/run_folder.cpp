// run_folder.cpp: loading a run folder for the reports, and grouping its findings into buckets.
#include "report/run_folder.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "baseline/baseline.hpp"
#include "baseline/classify.hpp"
#include "baseline/run_folder.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "report/escape.hpp"
#include "util/result.hpp"

namespace crosscheck::report {
namespace {

namespace fs = std::filesystem;
using differential::DivergenceClass;

constexpr const char* kRunFormat = "crosscheck-fuzz/1";
constexpr const char* kSummaryFormat = "crosscheck-summary/1";

std::optional<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The file parsed, or null when it does not exist; Fatal naming it when it exists but is not JSON.
json::Value read_json(const fs::path& p) {
  std::error_code ec;
  if (!fs::exists(p, ec)) return json::Value::null();
  auto text = read_file(p);
  if (!text) throw Fatal(p.string() + ": cannot be read");
  json::ParseLimits limits;
  limits.max_bytes = std::size_t{1} << 30;
  auto parsed = json::parse(*text, limits);
  if (!parsed.ok()) {
    throw Fatal(p.string() + ": not JSON (" + parsed.error().message() +
                "): the file is damaged or was cut while being written");
  }
  if (!parsed.value().is_object()) throw Fatal(p.string() + ": expected a JSON object");
  return std::move(parsed.value());
}

std::string string_field(const json::Value& o, const char* key) {
  const json::Value* v = o.is_object() ? o.find(key) : nullptr;
  return v && v->is_string() ? v->string_value() : "";
}

std::uint64_t uint_field(const json::Value& o, const char* key) {
  const json::Value* v = o.is_object() ? o.find(key) : nullptr;
  return v && v->is_number() ? std::strtoull(v->number_text().c_str(), nullptr, 10) : 0;
}

void check_format(const fs::path& file, const json::Value& v, const char* expected) {
  const json::Value* f = v.find("format");
  if (!f) {
    throw Fatal(file.string() + ": field 'format' is missing (expected \"" + expected +
                "\"): the folder was written by an older crosscheck; run `crosscheck fuzz` on it again "
                "(it resumes and rewrites the file) or use a crosscheck of that version");
  }
  if (!f->is_string() || f->string_value() != expected) {
    throw Fatal(file.string() + ": field 'format' is " + json::write(*f) + ", expected \"" + expected +
                "\": the folder comes from another version of crosscheck");
  }
}

struct Loaded {
  findings::Finding finding;
  std::optional<Reduction> reduction;
};

Loaded load_finding(const fs::path& p) {
  json::Value v = read_json(p);
  auto f = findings::finding_from_json(v);
  if (!f.ok()) {
    throw Fatal(p.string() + ": " + f.error() +
                " (not a crosscheck-finding/1 file, or from another version of crosscheck)");
  }
  Loaded out{std::move(f.value()), std::nullopt};
  if (const json::Value* r = v.find("reduction"); r && r->is_object()) {
    out.reduction = Reduction{string_field(*r, "from"), uint_field(*r, "calls"),
                              uint_field(*r, "bytesBefore"), uint_field(*r, "bytesAfter")};
  }
  return out;
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
  const fs::path check_file = root / "baseline-check.json";
  json::Value check = read_json(check_file);
  if (check.is_null()) return;
  check_format(check_file, check, "crosscheck-baseline-check/1");
  const std::string named = string_field(check, "baseline");
  std::set<std::string> listed;
  for (const char* group : {"new", "known"}) {
    if (const json::Value* list = check.find(group); list && list->is_array()) {
      for (const auto& k : list->items()) listed.insert(string_field(k, "bucket"));
    }
  }
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
  for (const char* group : {"new", "known"}) {
    if (const json::Value* list = check.find(group); list && list->is_array()) {
      for (const auto& k : list->items()) {
        auto it = by_id.find(string_field(k, "bucket"));
        const json::Value* wrong = k.find("referenceWrong");
        if (it != by_id.end() && wrong && wrong->is_bool()) it->second->reference_wrong = wrong->as_bool();
      }
    }
  }
  if (const json::Value* known = check.find("known"); known && known->is_array()) {
    for (const auto& k : known->items()) {
      auto it = by_id.find(string_field(k, "bucket"));
      if (it == by_id.end()) continue;
      it->second->known = true;
      if (const json::Value* ids = k.find("entries"); ids && ids->is_array()) {
        for (const auto& id : ids->items()) {
          if (id.is_string()) it->second->known_entries.push_back(id.string_value());
        }
      }
    }
  }
  if (const json::Value* stale = check.find("stale"); stale && stale->is_array()) {
    for (const auto& s : stale->items()) {
      if (s.is_string()) data.stale_entries.push_back(s.string_value());
    }
  }
}

void add_unique(std::vector<std::string>& list, const std::string& s) {
  if (!s.empty() && std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
}

}  // namespace

const findings::Finding& Bucket::finding(const std::vector<FindingFile>& all) const {
  const FindingFile& f = all.at(shown);
  return shown_minimized && f.minimized ? *f.minimized : f.original;
}

std::string RunData::replay_command(const std::string& path) {
  return "crosscheck replay " + shell_quote(path);
}

double RunData::summary_number(const char* key) const {
  const json::Value* v = summary.is_object() ? summary.find(key) : nullptr;
  return v && v->is_number() ? std::strtod(v->number_text().c_str(), nullptr) : 0;
}

int class_rank(DivergenceClass c) {
  switch (c) {
    case DivergenceClass::kCrash:
      return 0;
    case DivergenceClass::kTimeout:
      return 1;
    case DivergenceClass::kProtocol:
      return 2;
    case DivergenceClass::kSdkError:
      return 3;
    case DivergenceClass::kAcceptance:
      return 4;
    case DivergenceClass::kRoundTripCross:
      return 5;
    case DivergenceClass::kRoundTripSelf:
      return 6;
    case DivergenceClass::kWarnings:
      return 7;
    case DivergenceClass::kDiagnostics:
      return 8;
  }
  return 9;
}

RunData load_run(const std::string& dir, const LoadOptions& options) {
  RunData data;
  data.dir = dir;
  const fs::path root(dir);
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    throw Fatal(dir + ": not a folder (expected the --out folder of crosscheck fuzz)");

  const fs::path run_file = root / "run.json";
  data.run = read_json(run_file);
  if (data.run.is_null()) {
    throw Fatal(
        run_file.string() +
        ": missing: not a crosscheck fuzz output folder (crosscheck fuzz --out DIR writes run.json first)");
  }
  check_format(run_file, data.run, kRunFormat);

  const fs::path summary_file = root / "summary.json";
  data.summary = read_json(summary_file);
  if (data.summary.is_null()) {
    if (!options.allow_partial) {
      throw Fatal(summary_file.string() +
                  ": missing: the run has not finished (interrupted, killed or still running); run the same "
                  "crosscheck fuzz command again to finish it, or pass --partial to report what is there");
    }
    data.partial = true;
    data.notes.push_back("summary.json is missing: the run did not finish; figures come from the event log");
  } else {
    check_format(summary_file, data.summary, kSummaryFormat);
    if (const json::Value* i = data.summary.find("interrupted"); i && i->is_bool() && i->as_bool())
      data.notes.push_back(
          "the run was interrupted (Ctrl-C or a signal) before its time or input budget; run the "
          "same crosscheck fuzz command to resume it");
  }

  const fs::path coverage_file = root / "coverage.json";
  data.coverage = read_json(coverage_file);
  if (data.coverage.is_null() && !data.partial) {
    throw Fatal(coverage_file.string() +
                ": missing: the run folder is incomplete (summary.json exists, "
                "so crosscheck fuzz wrote coverage.json; it was removed)");
  }

  const fs::path events_file = root / kEventLogName;
  if (fs::exists(events_file, ec)) {
    data.events = read_events(events_file.string());
    if (data.events.partial_last_line)
      data.notes.push_back("events.jsonl ends in a cut line (a writer was killed mid-line); it was skipped");
    if (data.events.skipped > (data.events.partial_last_line ? 1u : 0u))
      data.notes.push_back(std::to_string(data.events.skipped) +
                           " unreadable line(s) of events.jsonl were skipped");
  } else {
    data.notes.push_back("no events.jsonl (the run predates the event log): no plot over time");
  }

  // Findings, each paired with its minimized version.
  const fs::path findings_dir = root / "findings";
  if (!fs::is_directory(findings_dir, ec)) {
    throw Fatal(findings_dir.string() +
                ": missing: the run folder is incomplete (crosscheck fuzz creates it "
                "when it starts)");
  }
  std::vector<std::string> names, min_names;
  for (const auto& e : fs::directory_iterator(findings_dir, ec)) {
    std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.' || !e.is_regular_file())
      continue;  // .name.tmp-PID: a write in progress
    if (name.size() > 9 && name.compare(name.size() - 9, 9, ".min.json") == 0)
      min_names.push_back(name);
    else if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0)
      names.push_back(name);
  }
  if (ec) throw Fatal(findings_dir.string() + ": cannot be listed: " + ec.message());
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    FindingFile f;
    f.name = name;
    f.path = (findings_dir / name).string();
    f.original = load_finding(findings_dir / name).finding;
    std::string min_name = name.substr(0, name.size() - 5) + ".min.json";
    if (std::find(min_names.begin(), min_names.end(), min_name) != min_names.end()) {
      auto m = load_finding(findings_dir / min_name);
      f.minimized = std::move(m.finding);
      f.reduction = m.reduction;
      f.min_path = (findings_dir / min_name).string();
    }
    data.findings.push_back(std::move(f));
  }
  for (const auto& m : min_names) {
    std::string original = m.substr(0, m.size() - 9) + ".json";
    if (!std::binary_search(names.begin(), names.end(), original))
      data.notes.push_back("findings/" + m + " has no original findings/" + original + " beside it; ignored");
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
  const json::Value* bucket_roots = data.summary.is_object() ? data.summary.find("bucketRoots") : nullptr;
  for (Bucket& b : data.buckets) {
    const json::Value* more = bucket_roots && bucket_roots->is_object() ? bucket_roots->find(b.id) : nullptr;
    if (more && more->is_array()) {
      for (const auto& r : more->items()) {
        if (r.is_string() && std::find(b.roots.begin(), b.roots.end(), r.string_value()) == b.roots.end())
          b.roots.push_back(r.string_value());
      }
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
    const findings::Finding& shown = b.finding(data.findings);
    b.root = shown.root;
    for (const auto& d : shown.divergences) {
      if (d.bucket == b.id) {
        b.divergence = d;
        break;
      }
    }
  }
  if (const json::Value* s = data.summary.is_object() ? data.summary.find("strict") : nullptr;
      s && s->is_bool())
    data.strict = s->as_bool();
  apply_baseline(data, root, options);
  for (Bucket& b : data.buckets)
    b.blame = verdict::blame(b.divergence, b.finding(data.findings).results, {b.reference_wrong});
  std::stable_sort(data.buckets.begin(), data.buckets.end(), [&](const Bucket& a, const Bucket& b) {
    bool fa = data.fails(a), fb = data.fails(b);
    if (fa != fb) return fa;
    if (a.known != b.known) return b.known;  // new implementation-defined before known
    if (class_rank(a.cls) != class_rank(b.cls)) return class_rank(a.cls) < class_rank(b.cls);
    if (a.files.size() != b.files.size()) return a.files.size() > b.files.size();
    return std::tie(a.roots, a.id) < std::tie(b.roots, b.id);
  });

  // Who, where, and which roots.
  if (const json::Value* ids = data.summary.is_object() ? data.summary.find("implementations") : nullptr;
      ids && ids->is_array()) {
    for (const auto& id : ids->items()) add_unique(data.implementations, string_field(id, "name"));
  }
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
  if (const json::Value* skew = data.summary.is_object() ? data.summary.find("skewTable") : nullptr;
      skew && skew->is_object()) {
    for (const auto& [root_name, row] : skew->members()) {
      auto& out = data.skew[root_name];
      if (!row.is_object()) continue;
      for (const auto& [impl, hash] : row.members()) out[impl] = hash.is_string() ? hash.string_value() : "";
    }
  }
  if (const json::Value* sk = data.summary.is_object() ? data.summary.find("skewedRoots") : nullptr;
      sk && sk->is_array()) {
    for (const auto& r : sk->items()) {
      if (r.is_string()) data.skewed_roots.push_back(r.string_value());
    }
  }
  std::set<std::string> roots;
  for (const auto& [r, row] : data.skew) roots.insert(r);
  for (const json::Value* list :
       {data.summary.is_object() ? data.summary.find("roots") : nullptr, data.run.find("roots")}) {
    if (!list || !list->is_array()) continue;
    for (const auto& r : list->items()) {
      if (r.is_string()) roots.insert(r.string_value());
    }
  }
  for (const auto& b : data.buckets) roots.insert(b.roots.begin(), b.roots.end());
  data.roots.assign(roots.begin(), roots.end());
  return data;
}

}  // namespace crosscheck::report
