// merge_folder.cpp: reading and checking the folders crosscheck merge joins (see merge_folder.hpp).
#include "campaign/merge_folder.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <set>
#include <sstream>

#include "campaign/merge_io.hpp"
#include "json/parse.hpp"
#include "run/finding_file.hpp"
#include "run/finding_files.hpp"
#include "run/layout.hpp"
#include "run/state_file.hpp"
#include "run/summary_file.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign::merging {
namespace {

namespace fs = std::filesystem;

/// "fuzz iteration 123 (...)" -> 123.
std::uint64_t iteration_of(const std::string& source) {
  static const std::string prefix = "fuzz iteration ";
  if (source.rfind(prefix, 0) != 0) return std::numeric_limits<std::uint64_t>::max();
  std::size_t end = prefix.size();
  while (end < source.size() && std::isdigit(static_cast<unsigned char>(source[end]))) ++end;
  if (end == prefix.size()) return std::numeric_limits<std::uint64_t>::max();
  try {
    return std::stoull(source.substr(prefix.size(), end - prefix.size()));
  } catch (const std::exception&) {
    return std::numeric_limits<std::uint64_t>::max();
  }
}

std::vector<fs::path> sorted_entries(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& e : fs::directory_iterator(dir, ec)) out.push_back(e.path());
  if (ec) throw Fatal(dir.string() + ": cannot be listed (" + ec.message() + ")");
  std::sort(out.begin(), out.end());
  return out;
}

/// The run itself as a merge.json source record: its seed, shard and summary.
run::MergeSource own_source(const Folder& f, std::ostream& log) {
  run::MergeSource source;
  source.seed = f.run.seed;
  source.shard = f.run.shard;
  source.key = "seed " + f.run.seed;
  if (f.run.shard) source.key += ", shard " + *f.run.shard;
  source.path = fs::absolute(f.path).lexically_normal().string();
  source.summary = run::read_summary(f.path);
  if (source.summary) {
    source.generated = source.summary->generated;
    source.sent = source.summary->sent;
  } else {
    // An interrupted run (killed before its end) has no summary: its counters come from state.json.
    log << "WARNING: " << f.path.string()
        << " has no summary.json (an interrupted run?): its counts of inputs "
        << "come from state.json, its divergence counts are not known\n";
    if (auto state = run::read_state(f.path)) {
      source.generated = state->generated;
      source.sent = state->sent;
    }
  }
  return source;
}

}  // namespace

Folder load_folder(const fs::path& path, std::ostream& log) {
  Folder f;
  f.path = path;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) throw Fatal(path.string() + ": no such folder");
  auto config = run::read_run_config(path);
  if (!config)
    throw Fatal(path.string() + " is not a crosscheck fuzz output folder: " +
                (path / run::kRunFile).string() + " is missing");
  f.run = std::move(*config);

  for (const auto& listed : run::list_finding_files(path / run::kFindingsDir)) {
    auto loaded = run::FindingStore::load(listed.path);
    if (!loaded.ok()) throw Fatal(loaded.error());
    FindingFile ff;
    ff.name = listed.name;
    ff.value = parse_file(listed.path);
    ff.root = loaded.value().root;
    for (const auto& d : loaded.value().divergences) ff.buckets.push_back(d.bucket);
    ff.iteration = iteration_of(loaded.value().source);
    if (listed.min_path) {
      if (auto min = run::FindingStore::load(*listed.min_path); !min.ok()) throw Fatal(min.error());
      f.minimized[fs::path(*listed.min_path).filename().string()] = parse_file(*listed.min_path);
    }
    f.findings.push_back(std::move(ff));
  }
  for (const auto& root_dir : sorted_entries(path / run::kCorpusDir)) {
    if (!fs::is_directory(root_dir, ec)) continue;
    for (const auto& p : sorted_entries(root_dir)) {
      // ".<name>.tmp-<pid>": a write that a kill interrupted, never a corpus entry.
      if (!fs::is_regular_file(p, ec) || p.filename().string().rfind('.', 0) == 0) continue;
      f.corpus.push_back({root_dir.filename().string(), p.filename().string(), p});
    }
  }
  f.coverage = run::read_coverage(path);
  if (fs::path ev = path / run::kEventLogFile; fs::exists(ev)) {
    std::istringstream lines(read_file(ev));
    std::string line;
    // A kill -9 leaves at most one partial last line: lines that are not a JSON object are skipped.
    while (std::getline(lines, line)) {
      auto parsed = json::parse(line);
      if (parsed.ok() && parsed.value().is_object()) f.events.push_back(line);
    }
  }
  if (auto record = run::read_merge_record(path)) {
    f.is_merge = true;
    f.sources = std::move(record->sources);
  } else {
    f.sources.push_back(own_source(f, log));
  }
  return f;
}

void check_same_configuration(const Folder& reference, const std::vector<Folder>& folders) {
  for (const auto& f : folders) {
    const std::string diff = f.run.configuration_difference(reference.run);
    if (diff.empty()) continue;
    throw Fatal(
        (f.path / run::kRunFile).string() + ": another configuration than " +
        (reference.path / run::kRunFile).string() + " (" + diff +
        "): merge only runs of one schema, set of implementations and roots (seed and shard may differ)");
  }
}

}  // namespace crosscheck::campaign::merging
