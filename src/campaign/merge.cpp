// merge.cpp: joins fuzz output folders (see merge.hpp): read and check everything, then write.
// The folders are read by merge_folder, coverage.json and summary.json joined by merge_coverage and
// merge_summary; this file picks the finding files under the cap, the corpus, the runs and the
// events, and writes the merged folder.
#include "campaign/merge.hpp"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <map>
#include <optional>
#include <set>

#include "campaign/merge_coverage.hpp"
#include "campaign/merge_folder.hpp"
#include "campaign/merge_io.hpp"
#include "campaign/merge_summary.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/registry/layer_registry.hpp"
#include "run/finding_file.hpp"
#include "run/finding_files.hpp"
#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "run/merge_file.hpp"
#include "run/replay.hpp"
#include "run/summary_file.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;
using namespace merging;

/// Points a finding's replay command at its new place (run/replay.hpp, quoted for any path).
void rewrite_replay(json::Value& finding, const std::string& name, const fs::path& findings_dir) {
  json::Value* replay = finding.find("replay");
  if (!replay || !replay->is_string()) return;
  *replay = json::Value::string(run::replay_command((findings_dir / name).string()));
}

}  // namespace

MergeResult merge_runs(const MergeOptions& o, std::ostream& log) {
  if (o.dirs.empty()) throw Fatal("merge: name at least one folder to merge");
  if (o.max_per_bucket == 0) throw Fatal("--max-per-bucket: expected a positive number");
  const fs::path out(o.out);

  // --- read and check everything; nothing is written before the end of this block --------------
  std::error_code ec;
  std::optional<Folder> existing;
  if (fs::exists(out, ec)) {
    if (!fs::is_directory(out, ec)) throw Fatal(out.string() + ": exists and is not a folder");
    if (fs::exists(out / run::kRunFile))
      existing = load_folder(out, log);
    else if (!fs::is_empty(out, ec))
      throw Fatal(out.string() +
                  " exists and is not a crosscheck run or merge folder (no run.json): merge into a "
                  "new or empty folder, or into an earlier merge");
  }
  std::vector<Folder> folders;
  std::set<fs::path> seen;
  if (existing) seen.insert(fs::weakly_canonical(out));
  for (const auto& d : o.dirs) {
    fs::path canonical = fs::weakly_canonical(fs::path(d), ec);
    if (!seen.insert(ec ? fs::path(d) : canonical).second) {
      log << "note: " << d << " is named twice (or is the output folder); taken once\n";
      continue;
    }
    folders.push_back(load_folder(d, log));
  }
  const Folder& reference = existing ? *existing : folders.front();
  check_same_configuration(reference, folders);

  // Findings: every candidate in iteration order, under the per-bucket cap of a run (merge.hpp).
  std::vector<const FindingFile*> pool;
  std::set<std::string> names;
  std::vector<FindingFile> existing_files;
  if (existing) {
    for (auto ff : existing->findings) {
      ff.existing = true;
      names.insert(ff.name);
      existing_files.push_back(std::move(ff));
    }
  }
  for (const auto& ff : existing_files) pool.push_back(&ff);
  // The same payload found by two runs is one candidate, at its earliest iteration (as in one run,
  // where a repeat of a payload already written is no new witness).
  std::map<std::string, const FindingFile*> earliest;
  for (const auto& f : folders) {
    for (const auto& ff : f.findings) {
      if (names.count(ff.name)) continue;
      auto [it, fresh] = earliest.emplace(ff.name, &ff);
      if (!fresh && ff.iteration < it->second->iteration) it->second = &ff;
    }
  }
  for (const auto& [name, ff] : earliest) pool.push_back(ff);
  std::stable_sort(pool.begin(), pool.end(), [](const FindingFile* a, const FindingFile* b) {
    return a->iteration != b->iteration ? a->iteration < b->iteration : a->name < b->name;
  });
  MergeResult result;
  std::map<std::string, std::size_t> bucket_counts;
  std::vector<FindingFile> to_write;
  std::set<std::string> kept;
  for (const FindingFile* ff : pool) {
    bool keep = ff->existing;
    for (const auto& b : ff->buckets)
      if (bucket_counts[b]++ < o.max_per_bucket) keep = true;
    if (!keep) {
      ++result.capped;
      continue;
    }
    kept.insert(ff->name);
    if (!ff->existing) {
      FindingFile copy = *ff;
      rewrite_replay(copy.value, copy.name, out / run::kFindingsDir);
      to_write.push_back(std::move(copy));
    }
  }
  std::vector<std::pair<std::string, json::Value>> minimized;
  for (const auto& name : kept) {
    if (run::is_minimized_name(name)) continue;  // a minimized file whose original is gone
    std::string min_name = fs::path(run::minimized_path_for(name)).filename().string();
    if (existing && existing->minimized.count(min_name)) continue;
    for (const auto& f : folders) {
      auto it = f.minimized.find(min_name);
      if (it == f.minimized.end()) continue;
      json::Value v = it->second;
      rewrite_replay(v, min_name, out / run::kFindingsDir);
      minimized.emplace_back(min_name, std::move(v));
      break;
    }
  }
  std::set<std::string> buckets;
  for (const auto& ff : existing_files)
    for (const auto& b : ff.buckets) buckets.insert(b);
  for (const auto& ff : to_write)
    for (const auto& b : ff.buckets) buckets.insert(b);

  // Corpus: by file name (the hash of the bytes).
  std::set<std::pair<std::string, std::string>> corpus_names;
  if (existing)
    for (const auto& c : existing->corpus) corpus_names.insert({c.root, c.name});
  std::vector<const CorpusFile*> new_corpus;
  for (const auto& f : folders)
    for (const auto& c : f.corpus)
      if (corpus_names.insert({c.root, c.name}).second) new_corpus.push_back(&c);

  // Coverage: the union.
  std::vector<std::pair<fs::path, const run::CoverageFile*>> covs;
  if (existing && existing->coverage) covs.emplace_back(existing->path, &*existing->coverage);
  for (const auto& f : folders)
    if (f.coverage) covs.emplace_back(f.path, &*f.coverage);
  std::optional<run::CoverageFile> coverage;
  if (!covs.empty()) coverage = merge_coverage(covs);

  // Each layer's own files (layer 3's rule coverage): read and checked now, written with the rest.
  std::vector<std::string> shard_paths;
  for (const auto& f : folders) shard_paths.push_back(fs::path(f.path).string());
  const std::optional<std::string> existing_path =
      existing ? std::optional(fs::path(existing->path).string()) : std::nullopt;
  std::vector<layers::Layer::MergeWriter> layer_files;
  for (const layers::Layer* layer : layers::registered_layers())
    if (auto writer = layer->merge_files(shard_paths, existing_path))
      layer_files.push_back(std::move(writer));

  // Runs: each counted once, by seed and shard (a folder merged again replaces its earlier record).
  std::vector<run::MergeSource> sources;
  auto add_sources = [&](const Folder& f) {
    for (const auto& source : f.sources) {
      auto it =
          std::find_if(sources.begin(), sources.end(), [&](const auto& s) { return s.key == source.key; });
      if (it == sources.end())
        sources.push_back(source);
      else
        *it = source;
    }
  };
  if (existing) add_sources(*existing);
  for (const auto& f : folders) add_sources(f);

  // Events: concatenated, each line saying which run it came from; lines already in OUT are skipped.
  std::vector<std::string> event_lines;
  std::set<std::string> event_set;
  if (existing)
    for (const auto& l : existing->events)
      if (event_set.insert(l).second) event_lines.push_back(l);
  std::size_t new_events = 0;
  if (o.events) {
    for (const auto& f : folders) {
      const std::optional<std::string>& shard = f.run.shard;
      for (const auto& line : f.events) {
        std::string text = line;
        if (!f.is_merge) {
          json::Value v = std::move(json::parse(line).value());
          if (!v.find("shard")) v.add("shard", shard ? json::Value::string(*shard) : json::Value::null());
          if (!v.find("source")) v.add("source", json::Value::string(f.path.filename().string()));
          text = json::write(v);
        }
        if (event_set.insert(text).second) {
          event_lines.push_back(text);
          ++new_events;
        }
      }
    }
  }

  // Roots per bucket: the runs' summaries (merge_summary), and every finding file read, capped or not
  // (a run killed before its end has no summary).
  std::map<std::string, std::set<std::string>> bucket_roots;
  auto add_roots = [&](const std::vector<FindingFile>& files) {
    for (const auto& ff : files)
      for (const auto& b : ff.buckets) bucket_roots[b].insert(ff.root);
  };
  add_roots(existing_files);
  for (const auto& f : folders) add_roots(f.findings);
  std::size_t total_findings = existing_files.size() + to_write.size();
  const run::Summary summary =
      merge_summary(sources, total_findings, buckets.size(), coverage, std::move(bucket_roots));
  run::MergeRecord merge_record;
  merge_record.sources = sources;

  // --- write -------------------------------------------------------------------------------------
  const fs::path findings_dir = out / run::kFindingsDir;
  fs::create_directories(findings_dir, ec);
  if (ec) throw Fatal("cannot create " + findings_dir.string() + ": " + ec.message());
  if (!existing) {
    run::RunConfig merged_config = reference.run;
    merged_config.shard.reset();
    run::write_run_config(out, merged_config);
  }
  for (const CorpusFile* c : new_corpus) {
    const fs::path root_dir = out / run::kCorpusDir / c->root;
    fs::create_directories(root_dir, ec);
    if (ec) throw Fatal("cannot create " + root_dir.string() + ": " + ec.message());
    run::write_file_atomically((root_dir / c->name).string(), read_file(c->path));
  }
  for (const auto& ff : to_write)
    run::write_file_atomically((findings_dir / ff.name).string(), pretty(ff.value, 2));
  for (const auto& [name, v] : minimized)
    run::write_file_atomically((findings_dir / name).string(), pretty(v, 2));
  if (coverage) run::write_coverage(out, *coverage);
  for (const auto& write : layer_files) write(out.string());
  if (!event_lines.empty() && (new_events > 0 || !existing)) {
    std::string text;
    for (const auto& l : event_lines) text += l + "\n";
    run::write_file_atomically((out / run::kEventLogFile).string(), text);
  }
  run::write_merge_record(out, merge_record);
  run::write_summary(out, summary);

  result.runs = sources.size();
  result.findings = total_findings;
  result.new_findings = to_write.size();
  result.new_minimized = minimized.size();
  result.new_corpus = new_corpus.size();
  result.buckets = buckets.size();
  result.coverage_percent = coverage ? coverage->figures.percent() : 0.0;
  log << "merged " << folders.size() << " folder" << (folders.size() == 1 ? "" : "s") << " into "
      << out.string() << " (" << result.runs << " run" << (result.runs == 1 ? "" : "s")
      << " in merge.json): " << result.findings << " finding files (" << result.new_findings << " new, "
      << result.capped << " left out by the cap of " << o.max_per_bucket << " per bucket), "
      << result.new_minimized << " minimized new, " << result.new_corpus << " corpus entries new, "
      << result.buckets << " buckets" << std::fixed << std::setprecision(1);
  if (coverage)
    log << ", schema coverage " << result.coverage_percent << "% of the pairs a payload can reach ("
        << coverage->figures.percent_all() << "% of all)";
  log << "\n";
  return result;
}

}  // namespace crosscheck::campaign
