// reduce_files.cpp: minimized findings beside their originals, run folders, the "reduced" event.
#include "reduce/reduce_files.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>

#include "core/divergence.hpp"
#include "exec/implementation_set.hpp"
#include "json/write.hpp"
#include "layers/structural/input_traits.hpp"
#include "run/event_log.hpp"
#include "run/finding_files.hpp"
#include "run/layout.hpp"
#include "run/replay.hpp"

namespace crosscheck::reduce {
namespace {

namespace fs = std::filesystem;

json::Value num(std::uint64_t n) { return json::Value::number(std::to_string(n)); }

/// The run folder's events.jsonl when `finding_path` lies in <run>/findings/ and the log exists.
std::optional<std::string> event_log_for(const std::string& finding_path) {
  fs::path dir = fs::path(finding_path).parent_path();
  if (dir.filename() != run::kFindingsDir) return std::nullopt;
  fs::path log = dir.parent_path() / run::kEventLogFile;
  std::error_code ec;
  if (!fs::is_regular_file(log, ec)) return std::nullopt;
  return log.string();
}

/// The minimized finding for `original` (loaded from `path`).
run::Finding minimized(const run::Finding& original, const std::string& path, const std::string& min_path,
                       const ReduceResult& r) {
  run::Finding m;
  m.root = original.root;
  m.input = r.input;
  m.divergences = r.results.divergences;
  m.results = r.results.results;
  m.document = r.results.document;
  m.validations = r.results.validations;
  m.traits = layers::structural::analyse_input(r.input).names();
  m.seed = original.seed;
  m.source = original.source;
  m.replay = run::replay_command(min_path);
  if (original.reduction) {  // reducing a .min.json again: the story starts at the first original
    m.reduction = *original.reduction;
    m.reduction->calls += r.calls;
    m.reduction->bytes_after = r.input.size();
  } else {
    m.reduction =
        run::Reduction{fs::path(path).filename().string(), r.calls, original.input.size(), r.input.size()};
  }
  return m;
}

/// Reduces an already loaded finding and writes its .min.json; the error names the file.
Result<FileReduction, std::string> reduce_loaded(const std::string& path, const run::Finding& f,
                                                 const std::string& bucket, exec::ImplementationSet& set,
                                                 const ReduceOptions& options) {
  FileReduction out;
  out.finding_path = path;
  out.min_path = run::minimized_path_for(path);
  out.bucket = bucket;
  out.bytes_before = f.input.size();
  out.result = reduce(f, bucket, set, options);
  if (!out.result.reproduced) {
    std::string now;
    for (const auto& d : out.result.results.divergences) now += (now.empty() ? "" : ", ") + d.bucket;
    return path + ": bucket " + bucket + " does not reproduce any more on " +
           [&] {
             std::string names;
             for (const auto& n : set.names()) names += (names.empty() ? "" : ",") + n;
             return names;
           }() +
           " (the input now gives " + (now.empty() ? std::string("no divergence") : "buckets " + now) +
           "); nothing was written";
  }
  // An existing minimized finding is replaced only by a smaller input.
  std::error_code ec;
  if (fs::exists(out.min_path, ec)) {
    auto existing = run::FindingStore::load(out.min_path);
    if (existing.ok() && existing.value().input.size() <= out.result.input.size()) {
      out.note = "kept " + out.min_path + " (" + std::to_string(existing.value().input.size()) +
                 " bytes, not larger than this run's " + std::to_string(out.result.input.size()) + ")";
      return out;
    }
  }
  run::Finding m = minimized(f, path, out.min_path, out.result);
  json::WriteOptions pretty;
  pretty.indent = 2;
  run::write_file_atomically(out.min_path, json::write(run::finding_to_json(m), pretty) + "\n");
  out.written = true;
  out.note = "wrote " + out.min_path;
  if (auto log = event_log_for(path)) {
    run::EventLog events(*log);
    json::Value e = json::Value::object();
    e.add("file", json::Value::string("findings/" + fs::path(path).filename().string()));
    e.add("minimized", json::Value::string("findings/" + fs::path(out.min_path).filename().string()));
    e.add("calls", num(out.result.calls));
    e.add("bytesBefore", num(out.bytes_before));
    e.add("bytesAfter", num(out.result.input.size()));
    e.add("bucket", json::Value::string(bucket));
    events.append("reduced", e);  // the log is a convenience: a failure here loses no finding
  }
  return out;
}

}  // namespace

Result<Target, std::string> target_bucket(const std::string& path, const run::Finding& f,
                                          const std::optional<std::string>& bucket) {
  if (!bucket) {
    auto d = default_bucket(f);
    if (!d) return path + ": field 'divergences': the finding has no divergence to reduce";
    return Target{*d};
  }
  std::string have;
  for (const auto& d : f.divergences) {
    if (d.bucket == *bucket) return Target{d.bucket};
    have += (have.empty() ? "" : ", ") + d.bucket + " (" + core::class_name(d.cls) + ")";
  }
  return path + ": field 'divergences': no divergence in bucket " + *bucket +
         (have.empty() ? std::string(" (the finding has none)") : "; its buckets: " + have);
}

Result<FileReduction, std::string> reduce_finding_file(const std::string& path,
                                                       const std::optional<std::string>& bucket,
                                                       exec::ImplementationSet& set,
                                                       const ReduceOptions& options) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return path + ": no such finding file";
  auto loaded = run::FindingStore::load(path);
  if (!loaded.ok()) return loaded.error();
  const run::Finding& f = loaded.value();
  auto target = target_bucket(path, f, bucket);
  if (!target.ok()) return target.error();
  return reduce_loaded(path, f, target.value().bucket, set, options);
}

RunReduction reduce_run_folder(const std::string& run_dir, exec::ImplementationSet& set,
                               const RunReduceOptions& options, std::ostream& log) {
  RunReduction out;
  fs::path dir = fs::path(run_dir) / run::kFindingsDir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  struct Entry {
    std::string path;
    run::Finding finding;
  };
  std::vector<Entry> originals;
  std::set<std::string> covered;  // buckets some .min.json already shows
  std::set<std::string> has_min;  // originals with a .min.json
  auto load = [&](const std::string& path) -> std::optional<run::Finding> {
    auto loaded = run::FindingStore::load(path);
    if (loaded.ok()) return std::move(loaded).value();
    out.skipped.push_back(loaded.error() + " (skipped)");
    return std::nullopt;
  };
  for (const auto& listed : run::list_finding_files(dir)) {
    // A minimized finding, orphaned or beside its original, covers the buckets it shows.
    if (listed.min_path || listed.orphan_minimized) {
      if (auto m = load(listed.min_path.value_or(listed.path))) {
        for (const auto& d : m->divergences) covered.insert(d.bucket);
      }
      if (listed.min_path) has_min.insert(listed.path);
    }
    if (listed.orphan_minimized) continue;
    // A layer-3 finding (a scenario row) is reduced on its clients (reduce_scenario_run_folder).
    if (auto f = load(listed.path); f && !f->scenario) originals.push_back({listed.path, std::move(*f)});
  }
  // Per bucket: its smallest finding that has no .min.json yet.
  std::map<std::string, const Entry*> pick;
  std::map<std::string, core::DivergenceClass> cls;
  std::set<std::string> contract;  // buckets of contract divergences
  for (const auto& e : originals) {
    if (has_min.count(e.path)) continue;
    for (const auto& d : e.finding.divergences) {
      if (covered.count(d.bucket)) continue;
      cls.emplace(d.bucket, d.cls);
      if (!d.implementation_defined) contract.insert(d.bucket);
      auto& best = pick[d.bucket];
      if (!best || e.finding.input.size() < best->finding.input.size()) best = &e;
    }
  }
  std::vector<std::pair<std::string, const Entry*>> todo(pick.begin(), pick.end());
  // Contract buckets first (they fail the run: a person reads those first), then the smallest inputs.
  std::stable_sort(todo.begin(), todo.end(), [&](const auto& a, const auto& b) {
    const bool ca = contract.count(a.first) > 0, cb = contract.count(b.first) > 0;
    if (ca != cb) return ca;
    return a.second->finding.input.size() < b.second->finding.input.size();
  });
  std::set<std::string> done_files;
  const auto started = std::chrono::steady_clock::now();
  auto seconds_left = [&] {
    return options.max_seconds -
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  for (std::size_t k = 0; k < todo.size(); ++k) {
    const auto& [bucket, entry] = todo[k];
    std::string name = fs::path(entry->path).filename().string();
    if (covered.count(bucket)) continue;  // an earlier reduction in this loop landed there too
    if (done_files.count(entry->path)) {
      out.skipped.push_back("bucket " + bucket + " (" + name +
                            "): its smallest finding was reduced for another bucket; run `crosscheck reduce "
                            "--bucket " +
                            bucket + " " + entry->path + "` to write one for this bucket");
      continue;
    }
    if (!options.include_timeouts && cls[bucket] == core::DivergenceClass::kTimeout) {
      out.skipped.push_back(
          "bucket " + bucket + " (" + name +
          "): a timeout (each candidate may cost a whole deadline); run `crosscheck reduce " + entry->path +
          "`");
      continue;
    }
    std::size_t left = options.total_budget > out.calls ? options.total_budget - out.calls : 0;
    std::size_t buckets_here = 0;
    for (std::size_t j = k; j < todo.size(); ++j) buckets_here += covered.count(todo[j].first) ? 0 : 1;
    std::size_t share = std::min(options.per_finding_budget, left / std::max<std::size_t>(buckets_here, 1));
    bool stop = (options.base.should_stop && options.base.should_stop()) ||
                (options.max_seconds > 0 && seconds_left() <= 0);
    if (share < 8 || stop) {  // too little to even start; say what is left instead
      out.buckets_left = buckets_here;
      break;
    }
    ReduceOptions o = options.base;
    o.budget = share;
    if (options.max_seconds > 0) o.max_seconds = seconds_left();
    done_files.insert(entry->path);
    Result<FileReduction, std::string> r = std::string();
    try {
      r = reduce_loaded(entry->path, entry->finding, bucket, set, o);
    } catch (const Fatal& e) {  // e.g. a full disk: the original findings are all there; go on
      out.skipped.push_back("bucket " + bucket + " (" + name + "): " + e.what());
      continue;
    }
    if (!r.ok()) {
      out.calls += 1;
      out.skipped.push_back("bucket " + bucket + ": " + r.error());
      continue;
    }
    FileReduction& fr = r.value();
    out.calls += fr.result.calls;
    for (const auto& d : fr.result.results.divergences) covered.insert(d.bucket);
    log << "reduced " << name << " (bucket " << bucket << "): " << fr.bytes_before << " -> "
        << fr.result.input.size() << " bytes in " << fr.result.calls << " calls"
        << (fr.result.budget_exhausted ? " (budget reached)" : "") << (fr.written ? "" : "; " + fr.note)
        << "\n";
    out.reduced.push_back(std::move(fr));
  }
  return out;
}

std::string printable(const std::string& bytes, std::size_t max_bytes) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes.size() && i < max_bytes; ++i) {
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (bytes.size() > max_bytes) out += "... (" + std::to_string(bytes.size() - max_bytes) + " more bytes)";
  return out;
}

}  // namespace crosscheck::reduce
