// merge_summary.cpp: summary.json of a merged folder (see merge_summary.hpp).
#include "campaign/merge_summary.hpp"

#include <algorithm>

namespace crosscheck::campaign::merging {

run::Summary merge_summary(const std::vector<run::MergeSource>& sources, std::size_t findings,
                           std::size_t buckets, const std::optional<run::CoverageFile>& coverage,
                           std::map<std::string, std::set<std::string>> bucket_roots) {
  run::Summary out;
  for (const auto& source : sources) {
    if (source.summary) {
      out = *source.summary;
      break;
    }
  }
  out.generated = out.sent = out.divergent_inputs = out.contract_inputs = 0;
  out.by_class.clear();
  out.by_root.clear();
  out.by_implementation.clear();
  out.by_layer.clear();
  out.layers.clear();
  out.canonical_left_out.reset();
  out.interrupted = false;
  std::optional<double> longest;
  run::MergedRuns merged;
  merged.runs = sources.size();
  auto add = [](run::Counts& into, const run::Counts& from) {
    for (const auto& [name, n] : from) into[name] += n;
  };
  for (const auto& source : sources) {
    merged.shards.push_back(source.key);
    out.generated += source.generated;
    out.sent += source.sent;
    if (!source.summary) {
      merged.without_summary.push_back(source.key);
      continue;
    }
    const run::Summary& s = *source.summary;
    out.divergent_inputs += s.divergent_inputs;
    out.contract_inputs += s.contract_inputs;
    add(out.by_class, s.by_class);
    add(out.by_root, s.by_root);
    add(out.by_implementation, s.by_implementation);
    add(out.by_layer, s.by_layer);
    // Each layer's inputs add up; it ran on the roots it ran on in any run.
    for (const auto& [name, layer] : s.layers) {
      run::LayerRecord& into = out.layers[name];
      into.inputs += layer.inputs;
      for (const auto& root : layer.roots)
        if (std::find(into.roots.begin(), into.roots.end(), root) == into.roots.end())
          into.roots.push_back(root);
    }
    // Left out of the canonical layer in any shard: said once, with the first shard's reason.
    if (s.canonical_left_out) {
      if (!out.canonical_left_out) out.canonical_left_out.emplace();
      for (const auto& [impl, why] : *s.canonical_left_out) out.canonical_left_out->emplace(impl, why);
    }
    // The shards ran side by side: the merged run took as long as the longest one.
    longest = std::max(longest.value_or(0.0), s.elapsed);
    out.interrupted = out.interrupted || s.interrupted;
    // Every root each bucket was seen on, in any run (a bucket's files are capped, so not all show).
    for (const auto& [bucket, roots] : s.bucket_roots)
      bucket_roots[bucket].insert(roots.begin(), roots.end());
  }
  out.buckets = buckets;
  if (coverage) {
    out.coverage = coverage->figures;
    out.coverage_percent.reset();
  }
  out.bucket_roots = std::move(bucket_roots);
  out.findings = findings;
  if (longest) out.elapsed = *longest;
  out.merged = std::move(merged);
  return out;
}

}  // namespace crosscheck::campaign::merging
