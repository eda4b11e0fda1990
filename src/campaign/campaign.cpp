// campaign.cpp: the fuzz loop, the sender thread, resumable state.
#include "campaign/campaign.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <deque>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "campaign/schema_coverage.hpp"
#include "decoder/decoder.hpp"
#include "findings/finding_store.hpp"
#include "gen/generator.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "report/event_log.hpp"
#include "schema/sha256.hpp"
#include "util/file.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::string seconds_text(double t) {
  if (!std::isfinite(t) || t < 0) t = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", t);
  return buf;
}

/// The in-memory corpus is a bounded sample of the corpus folder (which keeps every entry): the bytes
/// only, parsed again when picked (a parse costs microseconds, a kept tree ten times the bytes), at
/// most this many entries and bytes per root, so that memory stays flat over a long run.
constexpr std::size_t kMemoryEntriesPerRoot = 1024;
constexpr std::size_t kMemoryBytesPerRoot = std::size_t{512} << 10;
constexpr std::size_t kMemoryEntryMaxBytes = std::size_t{64} << 10;  // larger ones stay on disk only

struct RootCorpus {
  std::vector<std::string> entries;
  std::size_t bytes = 0;
  std::uint64_t added = 0;  // entries ever offered, for the choice of the one to replace
  std::size_t on_disk = 0;  // files in corpus/<root>/
};

/// A fixed-size "seen before" filter over hashes, one bit a slot. Its memory is fixed at the start;
/// a set of every decoder outcome seen grew by about 1 MB a minute, because most inputs of a long run
/// show one not seen before. A collision only makes one input look not new: with a million
/// outcomes, about 6% of them.
class SeenBits {
 public:
  /// True when `hash` was not seen before.
  bool insert(std::size_t hash) {
    const std::size_t i = hash & (kBits - 1);
    std::uint64_t& word = words_[i >> 6];
    const std::uint64_t bit = std::uint64_t{1} << (i & 63);
    const bool fresh = (word & bit) == 0;
    word |= bit;
    return fresh;
  }

 private:
  static constexpr std::size_t kBits = std::size_t{1} << 24;  // 2 MiB
  std::vector<std::uint64_t> words_ = std::vector<std::uint64_t>(kBits / 64);
};

struct Pending {
  std::string root, bytes, source;
  std::uint64_t seed = 0;
};

/// The decoder's outcome with paths abstracted (indices and unknown member names), so that random
/// member names do not make every input look new.
std::string cpp_signature(const decoder::DecodeResult& r, const std::set<std::string, std::less<>>& known) {
  std::set<std::string> parts;
  for (const auto& d : r.diagnostics) parts.insert(d.code + "@" + differential::path_shape(d.path, &known));
  std::string s = r.accepted ? "A" : "R";
  for (const auto& p : parts) s += "|" + p;
  return s;
}

json::Value fingerprint(const schema::Ir& ir, const CampaignOptions& o) {
  json::Value f = json::Value::object();
  f.add("format", json::Value::string("crosscheck-fuzz/1"));
  f.add("seed", json::Value::number(std::to_string(o.seed)));
  json::Value roots = json::Value::array();
  for (const auto& r : o.roots) roots.push(json::Value::string(r));
  f.add("roots", std::move(roots));
  f.add("implementations", json::Value::string(o.adapters_fingerprint));
  f.add("schema", json::Value::string(ir.manifest_sha256.empty() ? ir.source_path : ir.manifest_sha256));
  // Only when used, so that the run.json of an unsharded, feedback-driven run keeps its old form.
  if (o.shard_count > 1)
    f.add("shard", json::Value::string(std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count)));
  if (o.deterministic) f.add("deterministic", json::Value::boolean(true));
  return f;
}

class Campaign {
 public:
  Campaign(const schema::Ir& ir, differential::ImplementationSet& impls, const CampaignOptions& o,
           std::ostream& log)
      : ir_(ir),
        impls_(impls),
        o_(o),
        log_(log),
        decoder_(ir),
        generator_(ir),
        mutator_(ir),
        coverage_(ir),
        store_((fs::path(o.out) / "findings").string()) {}

  CampaignSummary run() {
    prepare_folder();
    load_seeds();
    start_ = Clock::now();
    events_ = std::make_unique<report::EventLog>((fs::path(o_.out) / report::kEventLogName).string(),
                                                 elapsed_before_);
    log_event_start();
    log_event_progress();  // the curves start where this session starts (zero, or the resumed totals)
    // A Fatal on either thread (a write to a full disk) ends the run with that error: the sender
    // keeps it for this thread, and the sender is joined however this scope is left (a joinable
    // std::thread would terminate the process).
    std::thread sender([this] {
      try {
        send_loop();
      } catch (...) {
        sender_error_ = std::current_exception();
        abort_ = true;
      }
    });
    struct Joiner {
      Campaign& c;
      std::thread& t;
      ~Joiner() {
        if (!t.joinable()) return;
        c.abort_ = true;
        {
          std::lock_guard<std::mutex> lock(c.mutex_);
          c.generation_done_ = true;
        }
        c.cv_.notify_all();
        t.join();
      }
    } joiner{*this, sender};
    std::uint64_t i = first_iteration_, steps = 0;
    auto last_save = Clock::now(), last_report = Clock::now();
    while (!differential::stop_requested() && !abort_) {
      i = next_in_shard(i);
      if (o_.runs && i >= *o_.runs) break;  // --runs counts the run's iterations, shared by its shards
      double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
      if (o_.seconds && elapsed >= *o_.seconds) break;
      if (o_.stop_when && o_.stop_when()) break;
      step(i++);
      if ((++steps & 255) == 0) {
        auto now = Clock::now();
        if (now - last_save > std::chrono::seconds(5)) {
          save_state(i);
          last_save = now;
        }
        if (now - last_report > std::chrono::milliseconds(o_.live ? 250 : 10000)) {
          report_progress(false);
          last_report = now;
        }
        // Dense points early (short runs still get a curve), sparser later (a day stays ~1 MB).
        auto every =
            events_->elapsed() - elapsed_before_ < 120 ? std::chrono::seconds(2) : std::chrono::seconds(10);
        if (now - last_event_ >= every) log_event_progress();
      }
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      generation_done_ = true;
    }
    cv_.notify_all();
    sender.join();
    if (sender_error_) std::rethrow_exception(sender_error_);
    save_state(i);
    report_progress(true);
    log_event_progress();
    CampaignSummary s = summarize();
    log_event_end(s);
    return s;
  }

 private:
  /// The first iteration >= i that belongs to this shard.
  std::uint64_t next_in_shard(std::uint64_t i) const {
    if (o_.shard_count <= 1) return i;
    std::uint64_t r = i % o_.shard_count;
    return i - r + o_.shard_index + (r <= o_.shard_index ? 0 : o_.shard_count);
  }

  // --- folder, resume ---------------------------------------------------------------------------

  void prepare_folder() {
    std::error_code ec;
    fs::create_directories(fs::path(o_.out) / "corpus", ec);
    if (ec) throw Fatal("cannot create the output folder " + o_.out + ": " + ec.message());
    json::Value mine = fingerprint(ir_, o_);
    fs::path run_file = fs::path(o_.out) / "run.json";
    if (fs::exists(run_file)) {
      auto text = read_file_bytes(run_file);
      auto theirs = json::parse(text.value_or(""));
      if (!text || !theirs.ok() || json::write(theirs.value()) != json::write(mine)) {
        throw Fatal("the output folder " + o_.out + " belongs to a run with a different configuration (" +
                    run_file.string() + " says " +
                    (theirs.ok() ? json::write(theirs.value()) : std::string("nothing readable")) +
                    "; this run is " + json::write(mine) +
                    "): use another --out, or the same seed, roots, adapters and --shard to resume");
      }
      resumed_ = true;
      resume();
    } else {
      findings::write_file_atomically(run_file.string(), json::write(mine) + "\n");
    }
  }

  void resume() {
    // A missing or unreadable file parses as nothing: the run goes on from what the others say.
    auto state = json::parse(read_file_bytes(fs::path(o_.out) / "state.json").value_or(""));
    if (state.ok()) {
      if (const json::Value* it = state.value().find("iterations"); it && it->is_number()) {
        first_iteration_ = std::stoull(it->number_text());
      }
      if (const json::Value* e = state.value().find("elapsed"); e && e->is_number()) {
        elapsed_before_ = std::strtod(e->number_text().c_str(), nullptr);
      }
      for (const char* k : {"generated", "sent"}) {
        if (const json::Value* v = state.value().find(k); v && v->is_number()) {
          (std::string(k) == "generated" ? generated_ : sent_) = std::stoull(v->number_text());
        }
      }
    }
    auto cov = json::parse(read_file_bytes(fs::path(o_.out) / "coverage.json").value_or(""));
    if (cov.ok()) coverage_.merge_json(cov.value());
    std::size_t corpus_files = 0;
    for (const auto& dir : fs::directory_iterator(fs::path(o_.out) / "corpus")) {
      if (!dir.is_directory()) continue;
      for (const auto& f : fs::directory_iterator(dir.path())) {
        // ".<name>.tmp-<pid>": a write that a kill -9 interrupted (write_file_atomically), not an entry.
        if (f.path().filename().string().front() == '.') continue;
        if (auto bytes = read_file_bytes(f.path())) {
          ++corpus_files;
          ++corpus_[dir.path().filename().string()].on_disk;  // before the sender starts: no lock needed
          add_to_memory(dir.path().filename().string(), *bytes);
        }
      }
    }
    std::size_t findings = 0;
    for (const auto& f : fs::directory_iterator(fs::path(o_.out) / "findings")) {
      std::string name = f.path().filename().string();
      // A .min.json is the reducer's copy of a finding beside it: same buckets, not another witness.
      if (f.path().extension() != ".json" || name.find(".min.json") != std::string::npos) continue;
      auto loaded = findings::FindingStore::load(f.path().string());
      if (!loaded.ok()) continue;
      ++findings;
      ++findings_total_;
      written_names_.insert(name);
      for (const auto& d : loaded.value().divergences) {
        ++bucket_counts_[d.bucket];
        bucket_roots_[d.bucket].insert(loaded.value().root);
      }
    }
    // Roots a bucket was seen on without a file there (the previous session's summary.json).
    auto previous = json::parse(read_file_bytes(fs::path(o_.out) / "summary.json").value_or(""));
    const json::Value* roots =
        previous.ok() && previous.value().is_object() ? previous.value().find("bucketRoots") : nullptr;
    if (roots && roots->is_object()) {
      for (const auto& m : roots->members()) {
        if (!m.value.is_array()) continue;
        for (const auto& r : m.value.items()) {
          if (r.is_string()) bucket_roots_[m.key].insert(r.string_value());
        }
      }
    }
    log_ << "resuming " << o_.out << " at iteration " << first_iteration_ << ": " << corpus_files
         << " corpus entries, " << findings << " findings in " << bucket_counts_.size() << " buckets; "
         << corpus_size() << " corpus entries in memory\n";
  }

  void save_state(std::uint64_t iterations) {
    json::Value s = json::Value::object();
    s.add("iterations", json::Value::number(std::to_string(iterations)));
    s.add("generated", json::Value::number(std::to_string(generated_.load())));
    s.add("sent", json::Value::number(std::to_string(sent_.load())));
    s.add("elapsed", json::Value::number(seconds_text(events_ ? events_->elapsed() : elapsed_before_)));
    findings::write_file_atomically((fs::path(o_.out) / "state.json").string(), json::write(s) + "\n");
    std::lock_guard<std::mutex> lock(coverage_mutex_);
    json::WriteOptions pretty;
    pretty.indent = 1;
    findings::write_file_atomically((fs::path(o_.out) / "coverage.json").string(),
                                    json::write(coverage_.to_json(), pretty) + "\n");
  }

  // --- corpus -----------------------------------------------------------------------------------

  std::size_t corpus_size() {
    std::lock_guard<std::mutex> lock(corpus_mutex_);
    std::size_t n = 0;
    for (const auto& [root, c] : corpus_) n += c.entries.size();
    return n;
  }

  void add_to_memory(const std::string& root, const std::string& bytes) {
    if (bytes.size() > kMemoryEntryMaxBytes) return;
    std::lock_guard<std::mutex> lock(corpus_mutex_);
    RootCorpus& c = corpus_[root];
    ++c.added;
    // Over the bounds, a new entry replaces one chosen at random (each entry offered so far then
    // has about the same chance to be in memory); an entry that would not fit anyway is dropped.
    while (!c.entries.empty() &&
           (c.entries.size() >= kMemoryEntriesPerRoot || c.bytes + bytes.size() > kMemoryBytesPerRoot)) {
      std::size_t k = splitmix(c.added ^ bytes.size()) % c.entries.size();
      c.bytes -= c.entries[k].size();
      c.entries[k] = std::move(c.entries.back());
      c.entries.pop_back();
    }
    c.entries.push_back(bytes);
    c.bytes += bytes.size();
  }

  void keep(const std::string& root, const std::string& bytes) {
    bool room;
    {
      std::lock_guard<std::mutex> lock(corpus_mutex_);
      room = corpus_[root].on_disk < o_.corpus_files_per_root;
    }
    if (room) {
      fs::path dir = fs::path(o_.out) / "corpus" / root;
      std::error_code ec;
      fs::create_directories(dir, ec);
      fs::path file = dir / schema::sha256_hex(bytes).substr(0, 40);
      if (!fs::exists(file)) {
        findings::write_file_atomically(file.string(), bytes);
        std::lock_guard<std::mutex> lock(corpus_mutex_);
        ++corpus_[root].on_disk;
      }
    }
    add_to_memory(root, bytes);
  }

  void load_seeds() {
    for (const auto& r : o_.roots) {
      const schema::Root* root = ir_.find_root(r);
      if (!root) {
        std::string known;
        for (const auto& k : ir_.roots) known += (known.empty() ? "" : ", ") + k.snake_name;
        throw Fatal("unknown root '" + r + "' (known: " + known + ")");
      }
      roots_.push_back(root);
    }
    if (roots_.empty()) {
      for (const auto& r : ir_.roots) roots_.push_back(&r);
    }
    std::size_t next = 0;
    for (const auto& p : o_.seed_paths) {
      std::vector<fs::path> files;
      std::error_code ec;
      if (fs::is_directory(p, ec)) {
        for (const auto& e : fs::recursive_directory_iterator(p, ec)) {
          if (e.is_regular_file()) files.push_back(e.path());
        }
      } else {
        files.emplace_back(p);
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        auto bytes = read_file_bytes(f);
        if (!bytes) {
          log_ << "WARNING: seed " << f.string() << " cannot be read; skipped\n";
          continue;
        }
        std::string name = f.filename().string();
        std::string root = name.substr(0, name.find('.'));
        if (!ir_.find_root(root)) root = roots_[next++ % roots_.size()]->snake_name;  // bytes for some root
        keep(root, *bytes);
      }
    }
  }

  // --- generation -------------------------------------------------------------------------------

  void step(std::uint64_t i) {
    std::uint64_t s = splitmix(o_.seed ^ splitmix(i));
    const schema::Root& root = *roots_[s % roots_.size()];
    std::string bytes, source;
    std::optional<json::Value> base;
    {
      std::lock_guard<std::mutex> lock(corpus_mutex_);
      auto it = corpus_.find(root.snake_name);
      if (!o_.deterministic && it != corpus_.end() && !it->second.entries.empty() && (s >> 8) % 4 != 0)
        bytes = it->second.entries[(s >> 16) % it->second.entries.size()];
    }
    if (!bytes.empty()) {
      auto parsed = json::parse(bytes);
      if (parsed.ok()) {
        base = std::move(parsed.value());
        bytes.clear();
      }
    }
    if (!base && bytes.empty()) base = generator_.valid(root, s);
    if (base) {
      if ((s >> 24) % 8 == 0) {
        bytes = json::write(*base);
        source = "generated";
      } else {
        gen::Mutant m = mutator_.any(root, *base, s);
        bytes = std::move(m.bytes);
        source = std::string(gen::mutation_name(m.mutation)) + ": " + m.description;
      }
    } else {
      source = "corpus bytes";
    }
    ++generated_;
    SchemaCoverage::Probe probe;
    decoder::DecodeResult r = decoder_.decode(root, bytes, &probe);
    bool fresh_coverage;
    {
      std::lock_guard<std::mutex> lock(coverage_mutex_);
      fresh_coverage = coverage_.finish(probe, r.accepted);
    }
    bool fresh_signature = signatures_.insert(
        std::hash<std::string>{}(root.snake_name + "#" + cpp_signature(r, impls_.known_names())));
    bool interesting = fresh_coverage || fresh_signature;
    if (interesting) keep(root.snake_name, bytes);
    if (interesting || o_.deterministic || (s >> 32) % o_.sample_every == 0) {
      std::unique_lock<std::mutex> lock(mutex_);
      // The adapters are the bottleneck: when they are behind, samples are dropped and interesting
      // inputs wait in the corpus (they are mutated again later); generation never blocks on an SDK.
      // Except in a deterministic run, where every input must reach the adapters: it waits for room.
      while (o_.deterministic && queue_.size() >= 8 * o_.batch && !differential::stop_requested() &&
             !abort_ && !(o_.stop_when && o_.stop_when())) {
        lock.unlock();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        lock.lock();
      }
      if (queue_.size() >= 8 * o_.batch) {
        ++dropped_;
        return;
      }
      queue_.push_back({root.snake_name, std::move(bytes),
                        "fuzz iteration " + std::to_string(i) + " (" + source + ")", s});
      cv_.notify_one();
    }
  }

  // --- adapters ---------------------------------------------------------------------------------

  void send_loop() {
    while (true) {
      std::vector<Pending> batch;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait_for(lock, std::chrono::milliseconds(200),
                     [&] { return queue_.size() >= o_.batch || generation_done_; });
        if (queue_.empty()) {
          if (generation_done_) return;
          continue;
        }
        while (!queue_.empty() && batch.size() < o_.batch) {
          batch.push_back(std::move(queue_.front()));
          queue_.pop_front();
        }
      }
      if (differential::stop_requested() || (o_.stop_when && o_.stop_when()) || abort_) return;
      std::vector<differential::DecodeRequest> requests;
      for (const auto& p : batch) requests.push_back({p.root, p.bytes});
      auto results = impls_.run(requests);
      sent_ += batch.size();
      for (std::size_t k = 0; k < results.size(); ++k) record(batch[k], results[k]);
    }
  }

  void record(const Pending& p, const differential::PayloadResults& r) {
    if (tuples_.insert(p.root + "#" + differential::outcome_tuple(r.results)).second) keep(p.root, p.bytes);
    if (r.divergences.empty()) return;
    bool all_defined = std::all_of(r.divergences.begin(), r.divergences.end(),
                                   [](const auto& d) { return d.implementation_defined; });
    std::lock_guard<std::mutex> lock(stats_mutex_);
    ++divergent_inputs_;
    if (!all_defined) ++contract_inputs_;
    bool write = false;
    const differential::Divergence* first_new = nullptr;
    // The same payload again (same finding file) is no new witness: it neither counts towards the
    // per-bucket cap nor rewrites the file, unless it shows a bucket not seen yet. So the files kept
    // depend on the distinct inputs alone, which is what lets crosscheck merge rebuild exactly one
    // run's findings from its shards' (docs/ci.md).
    findings::Finding probe;
    probe.root = p.root;
    probe.input = p.bytes;
    probe.divergences = r.divergences;
    std::string file_name = findings::finding_file_name(probe);
    bool repeat = written_names_.count(file_name) > 0 &&
                  std::all_of(r.divergences.begin(), r.divergences.end(),
                              [&](const auto& d) { return bucket_counts_.count(d.bucket) > 0; });
    for (const auto& d : r.divergences) {
      ++by_class_[differential::class_name(d.cls)];
      ++by_root_[p.root];
      for (const auto& impl : d.implementations) ++by_impl_[impl];
      if (d.implementation_defined) ++impl_defined_;
      bucket_roots_[d.bucket].insert(p.root);
      if (repeat) continue;
      std::size_t seen = bucket_counts_[d.bucket]++;
      if (seen == 0 && !first_new) first_new = &d;
      if (seen < o_.max_per_bucket) write = true;
    }
    if (!write) return;
    findings::Finding f = findings::finding_of(r);
    f.seed = p.seed;
    f.source = p.source;
    f.replay = "crosscheck replay " + (fs::path(store_.dir()) / findings::finding_file_name(f)).string();
    store_.write(f);
    written_names_.insert(file_name);
    ++findings_written_;
    ++findings_total_;
    log_event_finding(f, first_new);
  }

  // --- event log (events.jsonl, docs/reports.md) -----------------------------------------------

  static json::Value num(std::uint64_t n) { return json::Value::number(std::to_string(n)); }
  static json::Value rate(double x) { return json::Value::number(seconds_text(x)); }

  void append_event(std::string_view name, const json::Value& fields) {
    if (events_->append(name, fields) || event_warned_) return;
    event_warned_ = true;  // the findings matter more than the log: warn once and go on
    log_ << "WARNING: the event log stops here (" << events_->error() << "); findings are still written\n";
  }

  void log_event_start() {
    json::Value f = json::Value::object();
    f.add("seed", num(o_.seed));
    json::Value impls = json::Value::array();
    for (const auto& n : impls_.names()) impls.push(json::Value::string(n));
    f.add("implementations", std::move(impls));
    json::Value roots = json::Value::array();
    for (const auto* r : roots_) roots.push(json::Value::string(r->snake_name));
    f.add("roots", std::move(roots));
    f.add("resumed", json::Value::boolean(resumed_));
    f.add("crosscheckVersion", json::Value::string(CROSSCHECK_VERSION));
    std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    f.add("startedAt", json::Value::string(stamp));
    std::lock_guard<std::mutex> lock(stats_mutex_);
    append_event("start", f);
    last_event_ = Clock::now();
    last_event_t_ = events_->elapsed();
    last_event_generated_ = generated_;
    last_event_sent_ = sent_;
  }

  void log_event_progress() {
    double t = events_->elapsed();
    double dt = std::max(t - last_event_t_, 1e-3);
    std::uint64_t generated = generated_, sent = sent_;
    json::Value f = json::Value::object();
    f.add("generated", num(generated));
    f.add("sent", num(sent));
    {
      std::lock_guard<std::mutex> lock(stats_mutex_);
      f.add("divergentInputs", num(divergent_inputs_));
      f.add("contractInputs", num(contract_inputs_));
      f.add("buckets", num(bucket_counts_.size()));
      f.add("findings", num(findings_total_));
    }
    {
      std::lock_guard<std::mutex> lock(coverage_mutex_);
      f.add("coverage", rate(coverage_.percent()));
    }
    // Rates over the interval since the previous point, so the plot shows throughput as it was then.
    f.add("inputsPerSecond", rate(static_cast<double>(generated - last_event_generated_) / dt));
    f.add("sentPerSecond", rate(static_cast<double>(sent - last_event_sent_) / dt));
    f.add("dropped", num(dropped_));
    std::lock_guard<std::mutex> lock(stats_mutex_);
    append_event("progress", f);
    last_event_ = Clock::now();
    last_event_t_ = t;
    last_event_generated_ = generated;
    last_event_sent_ = sent;
  }

  // Called with stats_mutex_ held (from record()).
  void log_event_finding(const findings::Finding& f, const differential::Divergence* first_new) {
    const differential::Divergence& d = first_new ? *first_new : f.divergences.front();
    json::Value e = json::Value::object();
    e.add("file", json::Value::string("findings/" + findings::finding_file_name(f)));
    e.add("bucket", json::Value::string(d.bucket));
    e.add("class", json::Value::string(differential::class_name(d.cls)));
    e.add("root", json::Value::string(f.root));
    std::set<std::string> involved;
    bool defined = true;
    json::Value buckets = json::Value::array();
    for (const auto& x : f.divergences) {
      involved.insert(x.implementations.begin(), x.implementations.end());
      defined = defined && x.implementation_defined;
      buckets.push(json::Value::string(x.bucket));
    }
    json::Value impls = json::Value::array();
    for (const auto& i : involved) impls.push(json::Value::string(i));
    e.add("implementations", std::move(impls));
    e.add("implementationDefined", json::Value::boolean(defined));
    e.add("newBucket", json::Value::boolean(first_new != nullptr));
    e.add("buckets", std::move(buckets));
    e.add("bytes", num(f.input.size()));
    append_event("finding", e);
  }

  void log_event_end(const CampaignSummary& s) {
    json::Value f = json::Value::object();
    f.add("generated", num(s.generated));
    f.add("sent", num(s.sent));
    f.add("divergentInputs", num(s.divergent_inputs));
    f.add("contractInputs", num(s.contract_inputs));
    f.add("buckets", num(s.buckets));
    f.add("coverage", rate(s.coverage_percent));
    {
      std::lock_guard<std::mutex> lock(stats_mutex_);
      f.add("findings", num(findings_total_));
    }
    f.add("interrupted", json::Value::boolean(differential::stop_requested()));
    f.add("exitCode", num(static_cast<std::uint64_t>(s.exit_code)));
    append_event("end", f);
  }

  /// summary.json fields the reports show: who ran, on which schema, and how it ended.
  void add_report_fields(json::Value& sum, const CampaignSummary& s) {
    sum.add("format", json::Value::string("crosscheck-summary/1"));
    sum.add("crosscheckVersion", json::Value::string(CROSSCHECK_VERSION));
    sum.add("seed", num(o_.seed));
    sum.add("elapsed", rate(events_ ? events_->elapsed() : elapsed_before_));
    sum.add("findings", num(findings_total_));
    sum.add("strict", json::Value::boolean(o_.strict));
    sum.add("interrupted", json::Value::boolean(differential::stop_requested()));
    sum.add("exitCode", num(static_cast<std::uint64_t>(s.exit_code)));
    // tracked, reached and possible pairs per outcome, percent (of the possible pairs) and percentAll.
    sum.add("coverage", coverage_.summary_json());
    json::Value ids = json::Value::array();
    for (const auto& id : impls_.identities()) {
      json::Value x = json::Value::object();
      x.add("name", json::Value::string(id.name));
      x.add("reportedName", json::Value::string(id.reported_name));
      x.add("language", json::Value::string(id.language));
      x.add("version", json::Value::string(id.version));
      x.add("languageVersion", json::Value::string(id.language_version));
      auto lock_field = [&](const char* k) {
        const json::Value* v = id.lock && id.lock->is_object() ? id.lock->find(k) : nullptr;
        return v && v->is_string() ? json::Value::string(v->string_value()) : json::Value::null();
      };
      x.add("schemaManifestSha256", lock_field("schemaManifestSha256"));
      x.add("sourceCommit", lock_field("sourceCommit"));
      x.add("schemaBundle", id.schema_bundle ? json::Value::string(*id.schema_bundle) : json::Value::null());
      x.add("roots", num(id.roots.size()));
      x.add("reportsWarnings", json::Value::boolean(id.reports_warnings));
      ids.push(std::move(x));
    }
    sum.add("implementations", std::move(ids));
    json::Value skew = json::Value::object();
    for (const auto& [root, row] : impls_.skew_table()) {
      json::Value r = json::Value::object();
      for (const auto& [impl, hash] : row) r.add(impl, json::Value::string(hash));
      skew.add(root, std::move(r));
    }
    sum.add("skewTable", std::move(skew));
    // A bucket is one fault, seen on any root; its files are capped, so this says where else it showed.
    json::Value bucket_roots = json::Value::object();
    {
      std::lock_guard<std::mutex> lock(stats_mutex_);
      for (const auto& [bucket, roots] : bucket_roots_) {
        json::Value list = json::Value::array();
        for (const auto& r : roots) list.push(json::Value::string(r));
        bucket_roots.add(bucket, std::move(list));
      }
    }
    sum.add("bucketRoots", std::move(bucket_roots));
    json::Value skewed = json::Value::array();
    for (const auto& r : impls_.skewed_roots()) skewed.push(json::Value::string(r));
    sum.add("skewedRoots", std::move(skewed));
    json::Value fuzzed = json::Value::array();
    for (const auto* r : roots_) fuzzed.push(json::Value::string(r->snake_name));
    sum.add("roots", std::move(fuzzed));
  }

  // --- reporting --------------------------------------------------------------------------------

  void report_progress(bool final_line) {
    double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    std::ostringstream line;
    line << std::fixed << std::setprecision(1) << "[fuzz " << elapsed << "s] inputs " << generated_ << " ("
         << std::setprecision(0) << static_cast<double>(generated_) / std::max(elapsed, 1e-3)
         << "/s in process), sent " << sent_ << " (" << static_cast<double>(sent_) / std::max(elapsed, 1e-3)
         << "/s)";
    {
      std::lock_guard<std::mutex> lock(stats_mutex_);
      line << ", divergences:";
      if (by_class_.empty()) line << " none";
      for (const auto& [c, n] : by_class_) line << " " << c << "=" << n;
      line << ", buckets " << bucket_counts_.size();
    }
    {
      std::lock_guard<std::mutex> lock(coverage_mutex_);
      line << std::setprecision(1) << ", schema coverage " << coverage_.percent() << "%";
    }
    if (o_.live && !final_line) {
      log_ << "\r" << line.str() << "\x1b[K" << std::flush;
    } else {
      log_ << (o_.live ? "\r" : "") << line.str() << (o_.live ? "\x1b[K\n" : "\n") << std::flush;
    }
  }

  CampaignSummary summarize() {
    CampaignSummary s;
    s.generated = generated_;
    s.sent = sent_;
    s.divergent_inputs = divergent_inputs_;
    s.contract_inputs = contract_inputs_;
    s.buckets = bucket_counts_.size();
    s.coverage_percent = coverage_.percent();
    bool fail = s.contract_inputs > 0 || (o_.strict && s.divergent_inputs > 0);
    s.exit_code = fail ? kExitDivergence : kExitClean;
    auto table = [&](const char* title, const std::map<std::string, std::size_t>& m) {
      log_ << title << ":";
      if (m.empty()) log_ << " none";
      log_ << "\n";
      for (const auto& [k, n] : m) log_ << "  " << std::left << std::setw(28) << k << n << "\n";
    };
    log_ << "\nsummary of " << o_.out << "\n";
    table("divergences per class", by_class_);
    table("divergences per root", by_root_);
    table("divergences per implementation", by_impl_);
    log_ << "inputs generated " << s.generated << ", sent to adapters " << s.sent << ", divergent "
         << s.divergent_inputs << " (" << s.contract_inputs
         << " on contract inputs, the rest implementation-defined)\n"
         << "buckets " << s.buckets << ", finding files written this run " << findings_written_ << " in "
         << store_.dir() << "\n"
         << "schema coverage " << coverage_.describe()
         << " (unreached nodes: " << (fs::path(o_.out) / "coverage.json").string() << ")\n";
    auto skewed = impls_.skewed_roots();
    if (!skewed.empty()) {
      log_ << "skewed roots (not compared):";
      for (const auto& r : skewed) log_ << " " << r;
      log_ << "\n";
    }
    json::Value sum = json::Value::object();
    sum.add("generated", json::Value::number(std::to_string(s.generated)));
    sum.add("sent", json::Value::number(std::to_string(s.sent)));
    sum.add("divergentInputs", json::Value::number(std::to_string(s.divergent_inputs)));
    sum.add("contractInputs", json::Value::number(std::to_string(s.contract_inputs)));
    sum.add("buckets", json::Value::number(std::to_string(s.buckets)));
    auto obj = [](const std::map<std::string, std::size_t>& m) {
      json::Value o = json::Value::object();
      for (const auto& [k, n] : m) o.add(k, json::Value::number(std::to_string(n)));
      return o;
    };
    sum.add("byClass", obj(by_class_));
    sum.add("byRoot", obj(by_root_));
    sum.add("byImplementation", obj(by_impl_));
    sum.add("coveragePercent", json::Value::number(std::to_string(s.coverage_percent)));
    add_report_fields(sum, s);
    json::WriteOptions pretty;
    pretty.indent = 2;
    findings::write_file_atomically((fs::path(o_.out) / "summary.json").string(),
                                    json::write(sum, pretty) + "\n");
    return s;
  }

  const schema::Ir& ir_;
  differential::ImplementationSet& impls_;
  const CampaignOptions& o_;
  std::ostream& log_;
  decoder::Decoder decoder_;
  gen::ValueGenerator generator_;
  gen::Mutator mutator_;
  SchemaCoverage coverage_;
  findings::FindingStore store_;
  std::vector<const schema::Root*> roots_;
  Clock::time_point start_;
  std::uint64_t first_iteration_ = 0;
  std::atomic<std::uint64_t> generated_{0}, sent_{0}, dropped_{0};
  std::atomic<bool> abort_{false};   // a thread failed: both stop
  std::exception_ptr sender_error_;  // set by the sender before abort_, read after joining it
  SeenBits signatures_;              // decoder outcomes seen, by hash (generation thread only)
  std::set<std::string> tuples_;     // sender thread only
  std::mutex corpus_mutex_, coverage_mutex_, stats_mutex_, mutex_;
  std::map<std::string, RootCorpus> corpus_;
  std::deque<Pending> queue_;
  std::condition_variable cv_;
  bool generation_done_ = false;
  std::unique_ptr<report::EventLog> events_;
  double elapsed_before_ = 0;       // run time of earlier sessions (state.json "elapsed")
  Clock::time_point last_event_{};  // last progress event (generation thread)
  std::uint64_t last_event_generated_ = 0, last_event_sent_ = 0;
  double last_event_t_ = -1;
  std::uint64_t findings_total_ = 0;  // finding files in the folder (read back on resume + written)
  bool event_warned_ = false;
  bool resumed_ = false;
  std::map<std::string, std::size_t> by_class_, by_root_, by_impl_, bucket_counts_;
  std::map<std::string, std::set<std::string>> bucket_roots_;  // bucket -> roots it was seen on
  std::set<std::string> written_names_;                        // finding files in the folder (sender thread)
  std::uint64_t divergent_inputs_ = 0, contract_inputs_ = 0, impl_defined_ = 0, findings_written_ = 0;
};

}  // namespace

CampaignSummary run_campaign(const schema::Ir& ir, differential::ImplementationSet& impls,
                             const CampaignOptions& options, std::ostream& log) {
  Campaign c(ir, impls, options, log);
  return c.run();
}

}  // namespace crosscheck::campaign
