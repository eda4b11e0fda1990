// classify.cpp: new / known / stale sorting of a run's buckets, and its terminal and JSON reports.
#include "baseline/classify.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

#include "json/write.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "run/verdict_file.hpp"

namespace crosscheck::baseline {
namespace {

using json::Value;

/// Witness preference: minimized, then fewer bytes, then file name (deterministic).
bool better_witness(const Occurrence& a, const Occurrence& b) {
  return std::make_tuple(!a.minimized, a.input.size(), a.finding) <
         std::make_tuple(!b.minimized, b.input.size(), b.finding);
}

std::string joined(const std::set<std::string>& s, const char* sep = ",") {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : sep) + x;
  return out;
}

Value string_array(const std::set<std::string>& s) {
  Value a = Value::array();
  for (const auto& x : s) a.push(Value::string(x));
  return a;
}

Value count(std::size_t n) { return Value::number(std::to_string(n)); }

}  // namespace

verdict::Verdict Classification::verdict(bool strict, std::optional<std::string> baseline) const {
  verdict::Verdict v;
  v.new_contract = new_contract;
  v.new_implementation_defined = new_defined;
  v.known = known;
  v.stale = stale.size();
  v.strict = strict;
  v.baseline = std::move(baseline);
  return v;
}

int Classification::exit_code(bool strict) const { return verdict(strict, std::nullopt).exit_code(); }

Classification classify(const Baseline& baseline, const std::vector<Occurrence>& occurrences,
                        const std::set<std::string>& implementations) {
  std::map<std::string, BucketReport> by_bucket;
  std::map<std::string, Occurrence> unmatched_witness;
  std::set<std::string> matched_entries;
  for (const auto& o : occurrences) {
    const auto& d = o.divergence;
    BucketReport& b = by_bucket[d.bucket];
    if (b.occurrences == 0) {
      b.bucket = d.bucket;
      b.signature = d.signature;
      b.cls = core::class_name(d.cls);
      b.layer = d.layer;
      b.witness = o;
    } else if (better_witness(o, b.witness)) {
      b.witness = o;
    }
    ++b.occurrences;
    b.roots.insert(o.root);
    b.implementations.insert(d.implementations.begin(), d.implementations.end());
    b.contract = b.contract || !d.implementation_defined;
    bool matched = false;
    for (const auto& e : baseline.entries) {
      if (matches_divergence(e, o.root, d)) {
        matched = true;
        b.entries.insert(e.id);
        b.reference_wrong = b.reference_wrong || e.reference_wrong;
        matched_entries.insert(e.id);
      }
    }
    if (!matched) {
      b.is_new = true;
      auto it = unmatched_witness.find(d.bucket);
      if (it == unmatched_witness.end() || better_witness(o, it->second)) unmatched_witness[d.bucket] = o;
    }
  }
  Classification c;
  for (auto& [bucket, b] : by_bucket) {
    if (b.is_new) {
      b.witness = unmatched_witness.at(bucket);
      ++(b.contract ? c.new_contract : c.new_defined);
    } else {
      ++c.known;
    }
    b.blame = verdict::blame(b.witness.divergence, b.witness.results, {b.reference_wrong});
    c.buckets.push_back(std::move(b));
  }
  std::stable_sort(c.buckets.begin(), c.buckets.end(), [](const BucketReport& a, const BucketReport& b) {
    return std::make_tuple(!a.is_new, !a.contract, a.cls, a.signature, a.bucket) <
           std::make_tuple(!b.is_new, !b.contract, b.cls, b.signature, b.bucket);
  });
  for (const auto& e : baseline.entries) {
    bool applicable = e.bucket.has_value() &&
                      std::any_of(implementations.begin(), implementations.end(),
                                  [&](const std::string& impl) { return names_implementation(e, impl); });
    if (!applicable) {
      c.not_applicable.push_back(e.id);
    } else if (!matched_entries.count(e.id)) {
      c.stale.push_back(e.id);
    }
  }
  return c;
}

void print_classification(std::ostream& out, const Baseline& baseline, const Classification& c, bool strict,
                          bool verbose) {
  std::map<std::string, std::pair<std::size_t, std::size_t>> per_entry;  // id -> (buckets, occurrences)
  for (const auto& b : c.buckets) {
    if (b.is_new) {
      // "new" only for what fails: a new implementation-defined bucket fails only under --strict.
      const char* label =
          b.contract ? "NEW" : (strict ? "NEW IMPL-DEFINED" : "implementation-defined (not failing)");
      out << label << " " << b.cls << " [" << b.bucket << "] " << joined(b.implementations) << " ("
          << b.occurrences << (b.occurrences == 1 ? " occurrence" : " occurrences") << ", roots "
          << joined(b.roots) << ")\n"
          << "    signature: " << b.signature << "\n"
          << "    deviating: " << joined({b.blame.deviating.begin(), b.blame.deviating.end()}) << " ("
          << b.blame.explanation() << ")\n"
          << "    witness:   " << b.witness.finding << "\n"
          << "    replay:    " << b.witness.replay << "\n";
      if (!b.entries.empty()) out << "    (other roots are known: " << joined(b.entries) << ")\n";
      continue;
    }
    for (const auto& id : b.entries) {
      per_entry[id].first += 1;
      per_entry[id].second += b.occurrences;
    }
    if (verbose) {
      out << "known " << b.cls << " [" << b.bucket << "] " << joined(b.implementations) << ": "
          << joined(b.entries) << "\n    signature: " << b.signature << "\n";
    }
  }
  for (const auto& e : baseline.entries) {
    auto it = per_entry.find(e.id);
    if (it == per_entry.end()) continue;
    out << "known: entry " << e.id << " (" << joined({e.implementations.begin(), e.implementations.end()})
        << "): " << it->second.first << (it->second.first == 1 ? " bucket, " : " buckets, ")
        << it->second.second << (it->second.second == 1 ? " occurrence" : " occurrences") << "\n";
  }
  for (const auto& id : c.stale) {
    auto e = std::find_if(baseline.entries.begin(), baseline.entries.end(),
                          [&](const Entry& x) { return x.id == id; });
    out << "stale: entry " << id << " (" << joined({e->implementations.begin(), e->implementations.end()})
        << "): not seen in this run\n";
  }
  std::size_t todo = std::count_if(baseline.entries.begin(), baseline.entries.end(),
                                   [](const Entry& e) { return e.reason.rfind("TODO", 0) == 0; });
  if (todo) out << "WARNING: " << todo << " baseline entries still wait for triage (reason TODO)\n";
  out << "baseline " << baseline.path << ": " << c.buckets.size()
      << " buckets: " << (strict ? c.new_contract + c.new_defined : c.new_contract) << " new failing"
      << (strict ? " (" + std::to_string(c.new_defined) + " of them implementation-defined, --strict)"
                 : ", " + std::to_string(c.new_defined) + " implementation-defined (not failing)")
      << ", " << c.known << " known; " << c.stale.size() << " stale entries, " << c.not_applicable.size()
      << " not applicable\n";
}

namespace check_key {
// The members of baseline-check.json that its reader reads back (schemas/baseline-check.schema.json).
constexpr const char* kBaseline = "baseline";
constexpr const char* kNew = "new";
constexpr const char* kKnown = "known";
constexpr const char* kBucket = "bucket";
constexpr const char* kReferenceWrong = "referenceWrong";
constexpr const char* kEntries = "entries";
constexpr const char* kStale = "stale";
}  // namespace check_key

json::Value classification_to_json(const Baseline& baseline, const std::vector<std::string>& runs,
                                   const Classification& c, bool strict) {
  Value o = Value::object();
  o.add("format", Value::string(run::kBaselineCheckFormat));
  o.add(check_key::kBaseline, Value::string(baseline.path));
  Value r = Value::array();
  for (const auto& x : runs) r.push(Value::string(x));
  o.add("runs", std::move(r));
  o.add("strict", Value::boolean(strict));
  Value fresh = Value::array(), known = Value::array();
  for (const auto& b : c.buckets) {
    Value x = Value::object();
    x.add(check_key::kBucket, Value::string(b.bucket));
    x.add("signature", Value::string(b.signature));
    x.add("class", Value::string(b.cls));
    x.add("roots", string_array(b.roots));
    x.add("implementations", string_array(b.implementations));
    x.add("deviating", string_array({b.blame.deviating.begin(), b.blame.deviating.end()}));
    x.add("blameBasis", Value::string(verdict::basis_name(b.blame.basis)));
    x.add(check_key::kReferenceWrong, Value::boolean(b.reference_wrong));
    x.add("implementationDefined", Value::boolean(!b.contract));
    x.add("occurrences", count(b.occurrences));
    x.add(check_key::kEntries, string_array(b.entries));
    x.add("witness", Value::string(b.witness.finding));
    x.add("replay", Value::string(b.witness.replay));
    (b.is_new ? fresh : known).push(std::move(x));
  }
  o.add(check_key::kNew, std::move(fresh));
  o.add(check_key::kKnown, std::move(known));
  Value stale = Value::array(), na = Value::array();
  for (const auto& id : c.stale) stale.push(Value::string(id));
  for (const auto& id : c.not_applicable) na.push(Value::string(id));
  o.add(check_key::kStale, std::move(stale));
  o.add("notApplicable", std::move(na));
  Value counts = Value::object();
  counts.add("new", count(c.new_contract));
  counts.add("newImplementationDefined", count(c.new_defined));
  counts.add("known", count(c.known));
  counts.add("stale", count(c.stale.size()));
  o.add("counts", std::move(counts));
  verdict::Verdict v = c.verdict(strict, baseline.path);
  o.add("exitCode", count(static_cast<std::size_t>(v.exit_code())));
  o.add("verdict", verdict::to_json(v));
  return o;
}

std::optional<RecordedCheck> read_baseline_check(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / run::kBaselineCheckFile;
  json::Value check = run::read_json_object(file);
  if (check.is_null()) return std::nullopt;
  run::require_format(file, check, run::kBaselineCheckFormat);
  run::require_schema(file, check, run::kBaselineCheckSchema);
  RecordedCheck out;
  out.baseline = check.find(check_key::kBaseline)->string_value();
  for (const char* group : {check_key::kNew, check_key::kKnown}) {
    for (const auto& k : check.find(group)->items()) {
      RecordedCheck::Bucket b;
      b.bucket = k.find(check_key::kBucket)->string_value();
      b.known = group == check_key::kKnown;
      if (const Value* wrong = k.find(check_key::kReferenceWrong)) b.reference_wrong = wrong->as_bool();
      if (const Value* ids = k.find(check_key::kEntries)) {
        for (const auto& id : ids->items()) b.entries.push_back(id.string_value());
      }
      out.buckets.push_back(std::move(b));
    }
  }
  for (const auto& s : check.find(check_key::kStale)->items()) out.stale.push_back(s.string_value());
  return out;
}

std::vector<Entry> entries_for_new(const Baseline& baseline, const Classification& c, bool strict) {
  std::set<std::string> ids;
  for (const auto& e : baseline.entries) ids.insert(e.id);
  std::vector<Entry> out;
  for (const auto& b : c.buckets) {
    if (!b.is_new || !(b.contract || strict)) continue;
    Entry e;
    std::string id = b.cls + "-" + b.bucket;
    for (int k = 2; ids.count(id); ++k) id = b.cls + "-" + b.bucket + "-" + std::to_string(k);
    ids.insert(id);
    e.id = id;
    e.implementations = b.blame.deviating;
    if (e.implementations.empty())
      e.implementations.assign(b.implementations.begin(), b.implementations.end());
    e.bucket = b.signature.empty() ? b.bucket : b.signature;
    e.cls = b.cls;
    e.reason = "TODO: triage";
    e.link = "TODO: link";
    Witness w;
    w.root = b.witness.root;
    if (b.witness.input.size() <= kMaxWitnessBytes) w.input = b.witness.input;
    w.finding = b.witness.finding;
    w.replay = b.witness.replay;
    e.witness = std::move(w);
    out.push_back(std::move(e));
  }
  return out;
}

Classification judge_run_folder(const Baseline* baseline, const std::string& dir, bool strict,
                                const char* command) {
  std::vector<RunFolder> runs{load_run_folder(dir)};
  Classification c =
      classify(baseline ? *baseline : Baseline{}, occurrences(runs), runs.front().implementations);
  if (baseline)
    run::write_json_file(std::filesystem::path(dir) / run::kBaselineCheckFile,
                         classification_to_json(*baseline, {dir}, c, strict), 2);
  run::write_verdict(dir, c.verdict(strict, baseline ? std::optional(baseline->path) : std::nullopt),
                     command);
  return c;
}

int check_run_folder(const Baseline& baseline, const std::string& dir, bool strict, std::ostream& out) {
  Classification c = judge_run_folder(&baseline, dir, strict, "baseline check");
  print_classification(out, baseline, c, strict, false);
  const verdict::Verdict v = c.verdict(strict, baseline.path);
  if (v.fails()) {
    out << "to accept the new buckets (then triage them): crosscheck baseline update --baseline "
        << baseline.path << (strict ? " --strict " : " ") << dir << "\n";
  }
  return v.exit_code();
}

verdict::Verdict judge_run_folder_without_baseline(const std::string& dir, bool strict, const char* command) {
  return judge_run_folder(nullptr, dir, strict, command).verdict(strict, std::nullopt);
}

}  // namespace crosscheck::baseline
