// run_story.cpp: the end of `crosscheck fuzz` on the terminal (see run_story.hpp).
#include "baseline/run_story.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace crosscheck::baseline {
namespace {

/// What a bucket is to the verdict: failing (new, and a contract bucket or --strict), known, or
/// implementation-defined (new, not failing).
enum class Kind { kFailing, kKnown, kImplementationDefined };

Kind kind_of(const BucketReport& b, bool strict) {
  if (!b.is_new) return Kind::kKnown;
  return verdict::bucket_fails(false, !b.contract, strict) ? Kind::kFailing : Kind::kImplementationDefined;
}

struct Tally {
  std::size_t buckets = 0, failing = 0, known = 0, defined = 0;
  void add(Kind k) {
    ++buckets;
    ++(k == Kind::kFailing ? failing : k == Kind::kKnown ? known : defined);
  }
};

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string joined(const std::vector<std::string>& items, const char* sep = ",") {
  std::string out;
  for (const auto& x : items) out += (out.empty() ? "" : sep) + x;
  return out;
}

/// "acceptance [3f2a...] python deviates (by reference), roots effect,event" (at most three roots named).
std::string bucket_line(const BucketReport& b) {
  std::vector<std::string> who = b.blame.deviating;
  if (who.empty()) who.assign(b.implementations.begin(), b.implementations.end());
  // A bucket seen on many roots names three: the line stays one line.
  std::vector<std::string> roots(b.roots.begin(), b.roots.end());
  const std::size_t more = roots.size() > 3 ? roots.size() - 3 : 0;
  roots.resize(roots.size() - more);
  return b.cls + " [" + b.bucket + "] " + joined(who) + (who.size() == 1 ? " deviates" : " deviate") +
         " (by " + verdict::basis_name(b.blame.basis) + "), " + (b.roots.size() == 1 ? "root " : "roots ") +
         joined(roots) + (more ? " and " + std::to_string(more) + " more" : "");
}

/// The counts after the verdict: "(3 known, 12 implementation-defined, not failing)".
std::string others(const Tally& all, bool with_baseline) {
  std::vector<std::string> parts;
  if (with_baseline && all.known) parts.push_back(std::to_string(all.known) + " known to the baseline");
  if (all.defined) parts.push_back(std::to_string(all.defined) + " implementation-defined, not failing");
  return parts.empty() ? "" : " (" + joined(parts, "; ") + ")";
}

std::string verdict_line(const Tally& all, const Story& s) {
  const bool with_baseline = s.baseline != nullptr;
  const std::string what =
      s.strict ? "divergences (--strict: implementation-defined ones fail too)" : "contract divergences";
  if (all.failing) {
    return "FAILED: " + plural(all.failing, "new failing bucket", "new failing buckets") + ", " + what +
           (with_baseline ? " that " + s.baseline->path + " does not list"
                          : "; no --baseline, so every bucket counts as new") +
           others(all, with_baseline);
  }
  if (all.buckets == 0) return "passed: no divergence";
  return std::string("passed: no new failing bucket") +
         (with_baseline ? " against " + s.baseline->path : "") + others(all, with_baseline);
}

std::string layer_line(const StoryLayer& layer, const Tally& t, bool with_baseline) {
  std::string s = "  " + layer.name + ": ";
  if (layer.inputs) s += std::to_string(*layer.inputs) + " " + layer.unit + ", ";
  s += plural(t.buckets, "bucket", "buckets") + ": " + std::to_string(t.failing) + " new failing, ";
  if (with_baseline) s += std::to_string(t.known) + " known, ";
  s += std::to_string(t.defined) + " implementation-defined (not failing)";
  if (!layer.note.empty()) s += "; " + layer.note;
  return s;
}

}  // namespace

void print_run_story(std::ostream& out, const Classification& c, const Story& story) {
  const bool with_baseline = story.baseline != nullptr;
  Tally all;
  std::map<std::string, Tally> by_layer;
  for (const auto& b : c.buckets) {
    const Kind k = kind_of(b, story.strict);
    all.add(k);
    by_layer[b.layer].add(k);
  }
  out << verdict_line(all, story) << "\n";

  // Every layer of the run, also one that found nothing; then any other a bucket names.
  std::set<std::string> said;
  for (const auto& layer : story.layers) {
    out << layer_line(layer, by_layer[layer.name], with_baseline) << "\n";
    said.insert(layer.name);
  }
  for (const auto& [name, tally] : by_layer)
    if (!said.count(name))
      out << layer_line(StoryLayer{name, std::nullopt, "inputs", ""}, tally, with_baseline) << "\n";
  for (const auto& caveat : story.caveats) out << caveat << "\n";

  auto list = [&](Kind kind, const std::string& heading, std::size_t limit) {
    std::size_t shown = 0, total = 0;
    for (const auto& b : c.buckets) {
      if (kind_of(b, story.strict) != kind) continue;
      if (total++ == 0) out << heading << "\n";
      if (shown >= limit) continue;
      ++shown;
      out << "  " << bucket_line(b);
      if (kind == Kind::kKnown) {
        out << ": entry " << joined(std::vector<std::string>(b.entries.begin(), b.entries.end())) << "\n";
      } else {
        out << ": " << b.witness.replay << "\n";
      }
    }
    if (total > shown) out << "  ... and " << total - shown << " more (the report lists every bucket)\n";
  };
  list(Kind::kFailing, "new failing buckets (each with the command that shows it again):",
       story.verbose ? static_cast<std::size_t>(-1) : kStoryFailingShown);
  if (story.verbose) {
    list(Kind::kImplementationDefined,
         "implementation-defined buckets (not failing):", static_cast<std::size_t>(-1));
    list(Kind::kKnown, "known buckets (the baseline lists them):", static_cast<std::size_t>(-1));
  }
  if (with_baseline) {
    if (all.failing)
      out << "to accept them (then triage): crosscheck baseline update --baseline " << story.baseline->path
          << (story.strict ? " --strict " : " ") << story.run_dir << "\n";
    if (!c.stale.empty()) {
      out << plural(c.stale.size(), "baseline entry", "baseline entries")
          << " not seen in this run (stale: information, not a failure)" << (story.verbose ? ":" : "")
          << "\n";
      if (story.verbose)
        for (const auto& id : c.stale) out << "  " << id << "\n";
    }
    const auto todo = std::count_if(story.baseline->entries.begin(), story.baseline->entries.end(),
                                    [](const Entry& e) { return e.reason.rfind("TODO", 0) == 0; });
    if (todo) out << "WARNING: " << todo << " baseline entries still wait for triage (reason TODO)\n";
  }
  if (!story.report_files.empty()) out << "reports: " << joined(story.report_files, " ") << "\n";
  out << "run folder: " << story.run_dir
      << (story.verbose || all.buckets == all.failing
              ? ""
              : " (the report lists every bucket; --verbose lists them here)")
      << "\n";
}

}  // namespace crosscheck::baseline
