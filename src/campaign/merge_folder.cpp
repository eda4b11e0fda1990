// merge_folder.cpp: reading and checking the folders crosscheck merge joins (see merge_folder.hpp).
#include "campaign/merge_folder.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <set>
#include <sstream>

#include "campaign/merge_io.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign::merging {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRunFormat = "crosscheck-fuzz/1";
/// run.json members that may differ between runs that are merged.
const std::set<std::string, std::less<>> kFreeMembers = {"seed", "shard", "deterministic"};

/// The members of run.json that must agree, in a canonical order.
std::map<std::string, std::string> configuration(const json::Value& run) {
  std::map<std::string, std::string> out;
  for (const auto& m : run.members()) {
    if (!kFreeMembers.count(m.key)) out[m.key] = json::write(m.value);
  }
  return out;
}

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
std::pair<std::string, json::Value> own_source(const Folder& f, std::ostream& log) {
  const json::Value* seed = f.run.find("seed");
  const std::string* shard = string_member(f.run, "shard");
  std::string key = "seed " + (seed && seed->is_number() ? seed->number_text() : std::string("?"));
  if (shard) key += ", shard " + *shard;
  json::Value summary = json::Value::object();
  fs::path summary_file = f.path / "summary.json";
  if (fs::exists(summary_file)) {
    summary = parse_file(summary_file);
    if (!summary.is_object()) throw Fatal(summary_file.string() + ": expected a JSON object");
  } else {
    // An interrupted run (killed before its end) has no summary: its counters come from state.json.
    fs::path state_file = f.path / "state.json";
    log << "WARNING: " << f.path.string()
        << " has no summary.json (an interrupted run?): its counts of inputs "
        << "come from state.json, its divergence counts are not known\n";
    if (fs::exists(state_file)) {
      json::Value state = parse_file(state_file);
      for (const char* k : {"generated", "sent"}) summary.add(k, number(number_or_zero(state.find(k))));
    }
  }
  json::Value record = json::Value::object();
  record.add("key", json::Value::string(key));
  record.add("path", json::Value::string(fs::absolute(f.path).lexically_normal().string()));
  record.add("seed", seed ? *seed : json::Value::null());
  record.add("shard", shard ? json::Value::string(*shard) : json::Value::null());
  record.add("summary", std::move(summary));
  return {key, std::move(record)};
}

}  // namespace

Folder load_folder(const fs::path& path, std::ostream& log) {
  Folder f;
  f.path = path;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) throw Fatal(path.string() + ": no such folder");
  fs::path run_file = path / "run.json";
  if (!fs::exists(run_file))
    throw Fatal(path.string() + " is not a crosscheck fuzz output folder: " + run_file.string() +
                " is missing");
  f.run = parse_file(run_file);
  const std::string* format = string_member(f.run, "format");
  if (!format || *format != kRunFormat)
    throw Fatal(run_file.string() + ": member \"format\" is " + (format ? "'" + *format + "'" : "missing") +
                ", expected '" + kRunFormat + "' (a folder of another crosscheck version?)");

  for (const auto& p : sorted_entries(path / "findings")) {
    std::string name = p.filename().string();
    if (ends_with(name, ".min.json")) {
      f.minimized[name] = parse_file(p);
      if (!f.minimized[name].is_object()) throw Fatal(p.string() + ": expected a finding object");
    } else if (ends_with(name, ".json")) {
      auto loaded = run::FindingStore::load(p.string());
      if (!loaded.ok()) throw Fatal(loaded.error());
      FindingFile ff;
      ff.name = name;
      ff.value = parse_file(p);
      ff.root = loaded.value().root;
      for (const auto& d : loaded.value().divergences) ff.buckets.push_back(d.bucket);
      ff.iteration = iteration_of(loaded.value().source);
      f.findings.push_back(std::move(ff));
    }
  }
  for (const auto& root_dir : sorted_entries(path / "corpus")) {
    if (!fs::is_directory(root_dir, ec)) continue;
    for (const auto& p : sorted_entries(root_dir)) {
      // ".<name>.tmp-<pid>": a write that a kill interrupted, never a corpus entry.
      if (!fs::is_regular_file(p, ec) || p.filename().string().rfind('.', 0) == 0) continue;
      f.corpus.push_back({root_dir.filename().string(), p.filename().string(), p});
    }
  }
  if (fs::path cov = path / "coverage.json"; fs::exists(cov)) {
    f.coverage = parse_file(cov);
    // "impossibleFlags" (pairs no payload can reach) is absent from files of older versions.
    for (const char* key : {"flags", "impossibleFlags"}) {
      const json::Value* flags = f.coverage->is_object() ? f.coverage->find(key) : nullptr;
      if (!flags && std::string_view(key) == "impossibleFlags") continue;
      if (!flags || !flags->is_array())
        throw Fatal(cov.string() + ": member \"" + key +
                    "\" is missing or not an array (expected [[id, bits], ...])");
      for (const auto& pair : flags->items()) {
        if (!pair.is_array() || pair.items().size() != 2 || !pair.items()[0].is_number() ||
            !pair.items()[1].is_number())
          throw Fatal(cov.string() + ": an entry of \"" + key + "\" is not [id, bits]: " + json::write(pair));
      }
    }
  }
  if (fs::path ev = path / "events.jsonl"; fs::exists(ev)) {
    std::istringstream lines(read_file(ev));
    std::string line;
    // A kill -9 leaves at most one partial last line: lines that are not a JSON object are skipped.
    while (std::getline(lines, line)) {
      auto parsed = json::parse(line);
      if (parsed.ok() && parsed.value().is_object()) f.events.push_back(line);
    }
  }
  if (fs::path mj = path / "merge.json"; fs::exists(mj)) {
    f.is_merge = true;
    json::Value m = parse_file(mj);
    const std::string* mf = string_member(m, "format");
    const json::Value* sources = m.is_object() ? m.find("sources") : nullptr;
    if (!mf || *mf != kMergeFormat || !sources || !sources->is_array())
      throw Fatal(mj.string() + ": expected {\"format\": \"" + kMergeFormat + "\", \"sources\": [...]}");
    for (const auto& s : sources->items()) {
      const std::string* key = string_member(s, "key");
      if (!key) throw Fatal(mj.string() + ": a source has no \"key\": " + json::write(s));
      f.sources.emplace_back(*key, s);
    }
  } else {
    f.sources.push_back(own_source(f, log));
  }
  return f;
}

void check_same_configuration(const Folder& reference, const std::vector<Folder>& folders) {
  const auto ref_config = configuration(reference.run);
  for (const auto& f : folders) {
    auto config = configuration(f.run);
    if (config == ref_config) continue;
    std::string diff;
    std::set<std::string> keys;
    for (const auto& [k, v] : config) keys.insert(k);
    for (const auto& [k, v] : ref_config) keys.insert(k);
    for (const auto& k : keys) {
      auto a = config.find(k);
      auto b = ref_config.find(k);
      std::string av = a == config.end() ? "absent" : a->second,
                  bv = b == ref_config.end() ? "absent" : b->second;
      if (av != bv) diff += (diff.empty() ? "" : "; ") + k + " " + av + " vs " + bv;
    }
    throw Fatal(
        (f.path / "run.json").string() + ": another configuration than " +
        (reference.path / "run.json").string() + " (" + diff +
        "): merge only runs of one schema, set of implementations and roots (seed and shard may differ)");
  }
}

}  // namespace crosscheck::campaign::merging
