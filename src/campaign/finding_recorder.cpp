// finding_recorder.cpp: divergence counts, bucket caps and finding files (see finding_recorder.hpp).
#include "campaign/finding_recorder.hpp"

#include <algorithm>
#include <filesystem>

#include "run/finding_files.hpp"
#include "run/replay.hpp"

namespace crosscheck::campaign {

namespace fs = std::filesystem;

FindingRecorder::FindingRecorder(std::string findings_dir, std::size_t max_per_bucket, core::Layers layers,
                                 run::RunEvents& events,
                                 std::function<void(const WrittenFinding&)> on_finding)
    : store_(std::move(findings_dir)),
      max_per_bucket_(max_per_bucket),
      events_(events),
      on_finding_(std::move(on_finding)) {
  if (layers.structural) counts_.by_layer[core::kStructuralLayer] = 0;
  if (layers.canonical) counts_.by_layer[core::kCanonicalLayer] = 0;
}

std::size_t FindingRecorder::load_folder() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t read = 0;
  for (const auto& listed : run::list_finding_files(store_.dir())) {
    auto loaded = run::FindingStore::load(listed.path);
    if (!loaded.ok()) continue;
    ++read;
    ++counts_.findings_total;
    written_names_.insert(listed.name);
    for (const auto& d : loaded.value().divergences) {
      ++bucket_counts_[d.bucket];
      bucket_roots_[d.bucket].insert(loaded.value().root);
    }
  }
  return read;
}

void FindingRecorder::add_bucket_roots(const std::map<std::string, std::set<std::string>>& roots) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [bucket, list] : roots) bucket_roots_[bucket].insert(list.begin(), list.end());
}

void FindingRecorder::record(const Pending& p, const core::PayloadResults& r) {
  if (!r.validations.empty() && !r.interrupted) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++counts_.validated_inputs;
    for (const auto& v : r.validations) {
      if (v.verdict == core::Verdict::kUnsupported) ++counts_.canonical_unsupported[v.implementation];
    }
  }
  if (r.divergences.empty()) return;
  bool all_defined = std::all_of(r.divergences.begin(), r.divergences.end(),
                                 [](const auto& d) { return d.implementation_defined; });
  std::unique_lock<std::mutex> lock(mutex_);
  ++counts_.divergent_inputs;
  if (!all_defined) ++counts_.contract_inputs;
  bool write = false;
  const core::Divergence* first_new = nullptr;
  // The same payload again (same finding file) is no new witness: it neither counts towards the
  // per-bucket cap nor rewrites the file, unless it shows a bucket not seen yet. So the files kept
  // depend on the distinct inputs alone, which is what lets crosscheck merge rebuild exactly one
  // run's findings from its shards' (docs/ci.md).
  run::Finding probe;
  probe.root = p.root;
  probe.input = p.bytes;
  probe.divergences = r.divergences;
  std::string file_name = run::finding_file_name(probe);
  bool repeat = written_names_.count(file_name) > 0 &&
                std::all_of(r.divergences.begin(), r.divergences.end(),
                            [&](const auto& d) { return bucket_counts_.count(d.bucket) > 0; });
  for (const auto& d : r.divergences) {
    ++counts_.by_class[core::class_name(d.cls)];
    ++counts_.by_layer[d.layer];
    ++counts_.by_root[p.root];
    for (const auto& impl : d.implementations) ++counts_.by_implementation[impl];
    bucket_roots_[d.bucket].insert(p.root);
    if (repeat) continue;
    std::size_t seen = bucket_counts_[d.bucket]++;
    if (seen == 0 && !first_new) first_new = &d;
    if (seen < max_per_bucket_) write = true;
  }
  if (!write) return;
  run::Finding f = run::finding_of(r);
  f.seed = p.seed;
  f.source = p.source;
  f.replay = run::replay_command((fs::path(store_.dir()) / run::finding_file_name(f)).string());
  std::string path = store_.write(f);
  written_names_.insert(file_name);
  ++counts_.findings_written;
  ++counts_.findings_total;
  events_.finding(f, first_new);
  double seconds = events_.elapsed();
  lock.unlock();
  if (on_finding_) {
    on_finding_(WrittenFinding{path, f, first_new ? *first_new : f.divergences.front(), first_new != nullptr,
                               all_defined, seconds});
  }
}

FindingRecorder::Counts FindingRecorder::counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Counts c = counts_;
  c.buckets = bucket_counts_.size();
  return c;
}

std::map<std::string, std::set<std::string>> FindingRecorder::bucket_roots() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bucket_roots_;
}

}  // namespace crosscheck::campaign
