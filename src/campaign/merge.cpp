// merge.cpp: joins fuzz output folders (see merge.hpp): read and check everything, then write.
#include "campaign/merge.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "findings/finding_store.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRunFormat = "crosscheck-fuzz/1";
constexpr const char* kMergeFormat = "crosscheck-merge/1";
/// run.json members that may differ between runs that are merged.
const std::set<std::string, std::less<>> kFreeMembers = {"seed", "shard", "deterministic"};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Fatal(p.string() + ": cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Fatal(p.string() + ": cannot be read");
  return ss.str();
}

json::Value parse_file(const fs::path& p) {
  auto parsed = json::parse(read_file(p));
  if (!parsed.ok()) throw Fatal(p.string() + ": not valid JSON (" + parsed.error().message() + ")");
  return std::move(parsed.value());
}

const std::string* string_member(const json::Value& o, std::string_view key) {
  const json::Value* v = o.is_object() ? o.find(key) : nullptr;
  return v && v->is_string() ? &v->string_value() : nullptr;
}

/// Replaces the member `key` (or adds it).
void set_member(json::Value& o, const std::string& key, json::Value value) {
  if (json::Value* v = o.find(key))
    *v = std::move(value);
  else
    o.add(key, std::move(value));
}

json::Value number(std::uint64_t n) { return json::Value::number(std::to_string(n)); }

std::uint64_t number_or_zero(const json::Value* v) {
  if (!v || !v->is_number()) return 0;
  try {
    return std::stoull(v->number_text());
  } catch (const std::exception&) {
    return 0;
  }
}

double double_or_zero(const json::Value* v) {
  return v && v->is_number() ? std::strtod(v->number_text().c_str(), nullptr) : 0.0;
}

/// The members of run.json that must agree, in a canonical order.
std::map<std::string, std::string> configuration(const json::Value& run) {
  std::map<std::string, std::string> out;
  for (const auto& m : run.members()) {
    if (!kFreeMembers.count(m.key)) out[m.key] = json::write(m.value);
  }
  return out;
}

struct FindingFile {
  std::string name;
  json::Value value;
  std::string root;
  std::vector<std::string> buckets;
  std::uint64_t iteration = std::numeric_limits<std::uint64_t>::max();
  bool existing = false;  // already in OUT
};

struct CorpusFile {
  std::string root, name;
  fs::path path;  // read when copied: a night's corpora need not fit in memory together
};

/// One folder, read completely.
struct Folder {
  fs::path path;
  json::Value run;
  std::vector<FindingFile> findings;
  std::map<std::string, json::Value> minimized;  // "<name>.min.json" -> content
  std::vector<CorpusFile> corpus;
  std::optional<json::Value> coverage;
  std::vector<std::string> events;  // complete lines, as written
  bool is_merge = false;            // has merge.json: its events already say their shard
  std::vector<std::pair<std::string, json::Value>> sources;  // key -> record
};

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

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
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
      auto loaded = findings::FindingStore::load(p.string());
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

/// Points a finding's replay command at its new place.
void rewrite_replay(json::Value& finding, const std::string& name, const fs::path& findings_dir) {
  json::Value* replay = finding.find("replay");
  if (!replay || !replay->is_string()) return;
  std::istringstream words(replay->string_value());
  std::string word, out;
  while (words >> word) {
    if (word == name || ends_with(word, "/" + name)) word = (findings_dir / name).string();
    out += (out.empty() ? "" : " ") + word;
  }
  *replay = json::Value::string(out);
}

std::string pretty(const json::Value& v, int indent) {
  json::WriteOptions o;
  o.indent = indent;
  return json::write(v, o) + "\n";
}

/// A coverage.json list of [node id, outcome bits] pairs (bit 0 accepted, bit 1 rejected), OR-ed per id.
std::map<std::uint64_t, std::uint64_t> read_flag_pairs(const json::Value& list) {
  std::map<std::uint64_t, std::uint64_t> out;
  for (const auto& pair : list.items())
    out[number_or_zero(&pair.items()[0])] |= number_or_zero(&pair.items()[1]) & 3;
  return out;
}

/// The same list written back; adds each outcome's count of nodes.
json::Value write_flag_pairs(const std::map<std::uint64_t, std::uint64_t>& flags, std::uint64_t& accepted,
                             std::uint64_t& rejected) {
  json::Value list = json::Value::array();
  for (const auto& [id, bits] : flags) {
    accepted += bits & 1;
    rejected += (bits >> 1) & 1;
    json::Value pair = json::Value::array();
    pair.push(number(id));
    pair.push(number(bits));
    list.push(std::move(pair));
  }
  return list;
}

/// The union of coverage.json files (same schema, so the same node ids).
json::Value merge_coverage(const std::vector<std::pair<fs::path, const json::Value*>>& covs) {
  std::map<std::uint64_t, std::uint64_t> flags;
  std::uint64_t tracked = number_or_zero(covs.front().second->find("tracked"));
  // Impossible pairs: what every file that lists them agrees on (the same schema gives the same list;
  // a file of an older version has no list and no say). A pair any run reached is possible.
  std::optional<std::map<std::uint64_t, std::uint64_t>> impossible;
  for (const auto& [path, cov] : covs) {
    if (number_or_zero(cov->find("tracked")) != tracked)
      throw Fatal((path / "coverage.json").string() + ": tracks " +
                  std::to_string(number_or_zero(cov->find("tracked"))) + " nodes, " +
                  (covs.front().first / "coverage.json").string() + " " + std::to_string(tracked) +
                  " (coverage of another schema?)");
    for (const auto& [id, bits] : read_flag_pairs(*cov->find("flags"))) flags[id] |= bits;
    if (const json::Value* list = cov->find("impossibleFlags")) {
      auto these = read_flag_pairs(*list);
      if (!impossible) {
        impossible = std::move(these);
      } else {
        for (auto& [id, bits] : *impossible) bits &= these.count(id) ? these[id] : 0;
      }
    }
  }
  std::uint64_t accepted = 0, rejected = 0;
  json::Value flag_list = write_flag_pairs(flags, accepted, rejected);
  std::uint64_t impossible_accepted = 0, impossible_rejected = 0;
  if (impossible) {  // a pair some run reached is possible after all
    for (auto it = impossible->begin(); it != impossible->end();) {
      it->second &= ~(flags.count(it->first) ? flags[it->first] : 0);
      it = it->second ? std::next(it) : impossible->erase(it);
    }
  }
  json::Value impossible_list = impossible
                                    ? write_flag_pairs(*impossible, impossible_accepted, impossible_rejected)
                                    : json::Value::array();
  // A node is unreached (or impossible) in the union only when every run that lists it so agrees.
  auto intersect = [&](const char* group, const char* key) {
    std::vector<std::string> first;
    std::vector<std::set<std::string>> others;
    bool have_first = false;
    for (const auto& [path, cov] : covs) {
      const json::Value* un = cov->find(group);
      const json::Value* list = un && un->is_object() ? un->find(key) : nullptr;
      if (!list || !list->is_array()) continue;
      std::vector<std::string> items;
      for (const auto& v : list->items())
        if (v.is_string()) items.push_back(v.string_value());
      if (!have_first) {
        first = std::move(items);
        have_first = true;
      } else {
        others.emplace_back(items.begin(), items.end());
      }
    }
    json::Value out = json::Value::array();
    for (const auto& s : first) {
      if (std::all_of(others.begin(), others.end(), [&](const auto& set) { return set.count(s) > 0; }))
        out.push(json::Value::string(s));
    }
    return out;
  };
  const std::uint64_t possible_accepted = tracked - impossible_accepted,
                      possible_rejected = tracked - impossible_rejected;
  auto percent_of = [&](std::uint64_t pairs) {
    return pairs == 0 ? 100.0 : 100.0 * static_cast<double>(accepted + rejected) / static_cast<double>(pairs);
  };
  json::Value o = json::Value::object();
  o.add("tracked", number(tracked));
  o.add("reachedAccepted", number(accepted));
  o.add("reachedRejected", number(rejected));
  o.add("possibleAccepted", number(possible_accepted));
  o.add("possibleRejected", number(possible_rejected));
  o.add("percent", json::Value::number(std::to_string(percent_of(possible_accepted + possible_rejected))));
  o.add("percentAll", json::Value::number(std::to_string(percent_of(2 * tracked))));
  o.add("flags", std::move(flag_list));
  o.add("impossibleFlags", std::move(impossible_list));
  json::Value unreached = json::Value::object();
  unreached.add("neverAccepted", intersect("unreached", "neverAccepted"));
  unreached.add("neverRejected", intersect("unreached", "neverRejected"));
  o.add("unreached", std::move(unreached));
  json::Value cannot = json::Value::object();
  cannot.add("neverVisited", intersect("impossible", "neverVisited"));
  cannot.add("alwaysRejected", intersect("impossible", "alwaysRejected"));
  o.add("impossible", std::move(cannot));
  return o;
}

/// summary.json of the merged folder: the first run's summary with the joined fields replaced.
json::Value merge_summary(const std::vector<std::pair<std::string, json::Value>>& sources,
                          std::size_t findings, std::size_t buckets,
                          const std::optional<json::Value>& coverage,
                          std::map<std::string, std::set<std::string>> bucket_roots) {
  json::Value out = json::Value::object();
  for (const auto& [key, record] : sources) {
    const json::Value* s = record.find("summary");
    if (s && s->is_object() && !s->members().empty()) {
      out = *s;
      break;
    }
  }
  std::map<std::string, std::uint64_t> counters;
  std::map<std::string, std::map<std::string, std::uint64_t>> tables;
  const char* counter_keys[] = {"generated", "sent", "divergentInputs", "contractInputs"};
  const char* table_keys[] = {"byClass", "byRoot", "byImplementation"};
  std::optional<std::uint64_t> exit_code;
  const json::Value* longest = nullptr;
  bool interrupted = false;
  json::Value shards = json::Value::array(), incomplete = json::Value::array();
  for (const auto& [key, record] : sources) {
    shards.push(json::Value::string(key));
    const json::Value* s = record.find("summary");
    if (!s || !s->is_object() || !s->find("format")) incomplete.push(json::Value::string(key));
    if (!s || !s->is_object()) continue;
    for (const char* k : counter_keys) counters[k] += number_or_zero(s->find(k));
    for (const char* k : table_keys) {
      const json::Value* t = s->find(k);
      if (!t || !t->is_object()) continue;
      for (const auto& m : t->members()) tables[k][m.key] += number_or_zero(&m.value);
    }
    if (const json::Value* e = s->find("exitCode"); e && e->is_number())
      exit_code = std::max(exit_code.value_or(0), number_or_zero(e));
    // The shards ran side by side: the merged run took as long as the longest one.
    if (const json::Value* e = s->find("elapsed"); e && e->is_number())
      if (!longest || double_or_zero(e) > double_or_zero(longest)) longest = e;
    if (const json::Value* i = s->find("interrupted"); i && i->is_bool() && i->as_bool()) interrupted = true;
    // Every root each bucket was seen on, in any run (a bucket's files are capped, so not all show).
    if (const json::Value* br = s->find("bucketRoots"); br && br->is_object()) {
      for (const auto& m : br->members()) {
        if (!m.value.is_array()) continue;
        for (const auto& r : m.value.items())
          if (r.is_string()) bucket_roots[m.key].insert(r.string_value());
      }
    }
  }
  for (const char* k : counter_keys) set_member(out, k, number(counters[k]));
  set_member(out, "buckets", number(buckets));
  for (const char* k : table_keys) {
    json::Value t = json::Value::object();
    for (const auto& [name, n] : tables[k]) t.add(name, number(n));
    set_member(out, k, std::move(t));
  }
  if (coverage) {
    set_member(out, "coveragePercent", *coverage->find("percent"));
    if (out.find("coverage")) {
      json::Value c = json::Value::object();
      for (const char* k : {"tracked", "reachedAccepted", "reachedRejected", "possibleAccepted",
                            "possibleRejected", "percent", "percentAll"})
        c.add(k, *coverage->find(k));
      set_member(out, "coverage", std::move(c));
    }
  }
  json::Value roots = json::Value::object();
  for (const auto& [bucket, names] : bucket_roots) {
    json::Value list = json::Value::array();
    for (const auto& r : names) list.push(json::Value::string(r));
    roots.add(bucket, std::move(list));
  }
  set_member(out, "bucketRoots", std::move(roots));
  if (out.find("findings")) set_member(out, "findings", number(findings));
  if (longest) set_member(out, "elapsed", *longest);
  if (out.find("interrupted")) set_member(out, "interrupted", json::Value::boolean(interrupted));
  if (exit_code) set_member(out, "exitCode", number(*exit_code));
  // Readers (crosscheck report) know this format; runs merged without a summary are named.
  set_member(out, "format", json::Value::string("crosscheck-summary/1"));
  json::Value merged = json::Value::object();
  merged.add("runs", number(sources.size()));
  merged.add("shards", std::move(shards));
  merged.add("withoutSummary", std::move(incomplete));
  set_member(out, "merged", std::move(merged));
  return out;
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
    if (fs::exists(out / "run.json"))
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
      rewrite_replay(copy.value, copy.name, out / "findings");
      to_write.push_back(std::move(copy));
    }
  }
  std::vector<std::pair<std::string, json::Value>> minimized;
  for (const auto& name : kept) {
    std::string min_name = name.substr(0, name.size() - 5) + ".min.json";
    if (existing && existing->minimized.count(min_name)) continue;
    for (const auto& f : folders) {
      auto it = f.minimized.find(min_name);
      if (it == f.minimized.end()) continue;
      json::Value v = it->second;
      rewrite_replay(v, min_name, out / "findings");
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
  std::vector<std::pair<fs::path, const json::Value*>> covs;
  if (existing && existing->coverage) covs.emplace_back(existing->path, &*existing->coverage);
  for (const auto& f : folders)
    if (f.coverage) covs.emplace_back(f.path, &*f.coverage);
  std::optional<json::Value> coverage;
  if (!covs.empty()) coverage = merge_coverage(covs);

  // Runs: each counted once, by seed and shard (a folder merged again replaces its earlier record).
  std::vector<std::pair<std::string, json::Value>> sources;
  auto add_sources = [&](const Folder& f) {
    for (const auto& source : f.sources) {
      const std::string& key = source.first;
      auto it = std::find_if(sources.begin(), sources.end(), [&](const auto& s) { return s.first == key; });
      if (it == sources.end())
        sources.push_back(source);
      else
        it->second = source.second;
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
      const std::string* shard = string_member(f.run, "shard");
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
  json::Value summary =
      merge_summary(sources, total_findings, buckets.size(), coverage, std::move(bucket_roots));
  json::Value merge_record = json::Value::object();
  merge_record.add("format", json::Value::string(kMergeFormat));
  json::Value source_list = json::Value::array();
  for (const auto& [key, record] : sources) source_list.push(record);
  merge_record.add("sources", std::move(source_list));

  // --- write -------------------------------------------------------------------------------------
  fs::create_directories(out / "findings", ec);
  if (ec) throw Fatal("cannot create " + (out / "findings").string() + ": " + ec.message());
  if (!existing) {
    json::Value run = reference.run;
    json::Value trimmed = json::Value::object();
    for (const auto& m : run.members())
      if (m.key != "shard") trimmed.add(m.key, m.value);
    findings::write_file_atomically((out / "run.json").string(), json::write(trimmed) + "\n");
  }
  for (const CorpusFile* c : new_corpus) {
    fs::create_directories(out / "corpus" / c->root, ec);
    if (ec) throw Fatal("cannot create " + (out / "corpus" / c->root).string() + ": " + ec.message());
    findings::write_file_atomically((out / "corpus" / c->root / c->name).string(), read_file(c->path));
  }
  for (const auto& ff : to_write)
    findings::write_file_atomically((out / "findings" / ff.name).string(), pretty(ff.value, 2));
  for (const auto& [name, v] : minimized)
    findings::write_file_atomically((out / "findings" / name).string(), pretty(v, 2));
  if (coverage) findings::write_file_atomically((out / "coverage.json").string(), pretty(*coverage, 1));
  if (!event_lines.empty() && (new_events > 0 || !existing)) {
    std::string text;
    for (const auto& l : event_lines) text += l + "\n";
    findings::write_file_atomically((out / "events.jsonl").string(), text);
  }
  findings::write_file_atomically((out / "merge.json").string(), pretty(merge_record, 2));
  findings::write_file_atomically((out / "summary.json").string(), pretty(summary, 2));

  result.runs = sources.size();
  result.findings = total_findings;
  result.new_findings = to_write.size();
  result.new_minimized = minimized.size();
  result.new_corpus = new_corpus.size();
  result.buckets = buckets.size();
  result.coverage_percent = coverage ? double_or_zero(coverage->find("percent")) : 0.0;
  log << "merged " << folders.size() << " folder" << (folders.size() == 1 ? "" : "s") << " into "
      << out.string() << " (" << result.runs << " run" << (result.runs == 1 ? "" : "s")
      << " in merge.json): " << result.findings << " finding files (" << result.new_findings << " new, "
      << result.capped << " left out by the cap of " << o.max_per_bucket << " per bucket), "
      << result.new_minimized << " minimized new, " << result.new_corpus << " corpus entries new, "
      << result.buckets << " buckets" << std::fixed << std::setprecision(1);
  if (coverage)
    log << ", schema coverage " << result.coverage_percent << "% of the pairs a payload can reach ("
        << double_or_zero(coverage->find("percentAll")) << "% of all)";
  log << "\n";
  return result;
}

}  // namespace crosscheck::campaign
