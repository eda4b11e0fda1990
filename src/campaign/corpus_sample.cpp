// corpus_sample.cpp: the corpus folder and its bounded in-memory sample (see corpus_sample.hpp).
#include "campaign/corpus_sample.hpp"

#include <algorithm>
#include <filesystem>

#include "campaign/splitmix.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "schema/sha256.hpp"
#include "util/file.hpp"
#include "util/thread_priority.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMemoryEntriesPerRoot = 1024;
constexpr std::size_t kMemoryBytesPerRoot = std::size_t{512} << 10;
constexpr std::size_t kMemoryEntryMaxBytes = std::size_t{64} << 10;  // larger ones stay on disk only

}  // namespace

CorpusSample::CorpusSample(std::string folder, std::size_t files_per_root, bool in_memory, Writer writer)
    : folder_(std::move(folder)),
      files_per_root_(files_per_root),
      in_memory_(in_memory),
      writer_mode_(writer) {}

CorpusSample::~CorpusSample() {
  try {
    flush();
  } catch (...) {  // a destructor does not throw: an explicit flush() is where the error is seen
  }
  {
    std::lock_guard<std::mutex> lock(write_mutex_);
    closing_ = true;
  }
  write_cv_.notify_all();
  if (writer_.joinable()) writer_.join();
}

void CorpusSample::flush() {
  std::unique_lock<std::mutex> lock(write_mutex_);
  // The writer thread runs at idle priority: on a machine kept busy by other work it hardly runs, and
  // a run's end waited for it (a unit test took 17-27 s instead of 0.6 under three busy loops). So the
  // caller writes what is queued itself, at its own priority, once the writer has finished the file
  // it is on; the writer takes nothing new meanwhile, so that no two threads write one file.
  ++draining_;
  written_cv_.wait(lock, [&] { return !writing_ || write_error_; });
  while (!to_write_.empty() && !write_error_) write_next(lock);
  --draining_;
  write_cv_.notify_all();
  if (write_error_) std::rethrow_exception(write_error_);
}

void CorpusSample::write_entry(const std::string& root, const std::string& bytes) {
  fs::path dir = fs::path(folder_) / root;
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path file = dir / schema::sha256_hex(bytes).substr(0, 40);
  if (fs::exists(file)) {  // from an earlier session: load_folder() counted it already
    std::lock_guard<std::mutex> roots_lock(mutex_);
    --roots_[root].on_disk;
  } else {
    // Not synced: an empty file left by a power loss is read back as an entry with no bytes,
    // which pick() treats as none.
    run::write_file_atomically(file.string(), bytes, run::Durability::kProcessCrash);
  }
}

void CorpusSample::write_loop() {
  run_only_when_idle();
  std::unique_lock<std::mutex> lock(write_mutex_);
  while (true) {
    write_cv_.wait(lock, [&] { return (!to_write_.empty() && draining_ == 0) || closing_; });
    if (closing_) return;  // the destructor's flush() wrote the queue
    writing_ = true;
    const bool written = write_next(lock);
    writing_ = false;
    written_cv_.notify_all();
    if (!written) return;
  }
}

bool CorpusSample::write_next(std::unique_lock<std::mutex>& lock) {
  auto [root, bytes] = std::move(to_write_.front());
  to_write_.pop_front();
  queued_bytes_ -= bytes.size();
  lock.unlock();
  try {
    write_entry(root, bytes);
  } catch (...) {
    lock.lock();
    write_error_ = std::current_exception();  // flush() and keep() rethrow it
    to_write_.clear();
    queued_bytes_ = 0;
    return false;
  }
  lock.lock();
  return true;
}

std::size_t CorpusSample::load_folder() {
  std::size_t files = 0;
  for (const auto& dir : fs::directory_iterator(fs::path(folder_))) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path())) {
      // ".<name>.tmp-<pid>": a write that a kill -9 interrupted (write_file_atomically), not an entry.
      if (f.path().filename().string().front() == '.') continue;
      if (auto bytes = read_file_bytes(f.path())) {
        ++files;
        {
          std::lock_guard<std::mutex> lock(mutex_);
          RootCorpus& c = roots_[dir.path().filename().string()];
          ++c.on_disk;
          c.written.insert(std::hash<std::string>{}(*bytes));  // kept again: a copy, not counted
        }
        add_to_memory(dir.path().filename().string(), *bytes);
      }
    }
  }
  return files;
}

void CorpusSample::load_seeds(const std::vector<std::string>& paths, const schema::Ir& ir,
                              const std::vector<const schema::Root*>& roots, std::ostream& log) {
  std::size_t next = 0;
  for (const auto& p : paths) {
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
        log << "WARNING: seed " << f.string() << " cannot be read; skipped\n";
        continue;
      }
      std::string name = f.filename().string();
      std::string root = name.substr(0, name.find('.'));
      if (!ir.find_root(root)) root = roots[next++ % roots.size()]->snake_name;  // bytes for some root
      keep(root, *bytes);
    }
  }
}

void CorpusSample::keep(const std::string& root, const std::string& bytes) {
  bool room;
  std::size_t hash;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    RootCorpus& c = roots_[root];
    // A copy of an entry already kept is neither queued again nor counted (the file name is the
    // hash of the bytes; the writer thread also skips a file an earlier session wrote).
    hash = std::hash<std::string>{}(bytes);
    room = c.on_disk < files_per_root_ && c.written.insert(hash);
    if (room) ++c.on_disk;
  }
  if (room) {
    std::unique_lock<std::mutex> lock(write_mutex_);
    if (write_error_) std::rethrow_exception(write_error_);
    if (to_write_.size() < kWriteQueueFiles && queued_bytes_ + bytes.size() <= kWriteQueueBytes) {
      to_write_.emplace_back(root, bytes);
      queued_bytes_ += bytes.size();
      if (!writer_.joinable() && writer_mode_ == Writer::kThread) {
        writer_ = std::thread([this] { write_loop(); });
      }
      lock.unlock();
      write_cv_.notify_one();
    } else {
      lock.unlock();
      // The writer is far behind: this one stays in memory only, and may be queued when kept again.
      std::lock_guard<std::mutex> roots_lock(mutex_);
      RootCorpus& c = roots_[root];
      --c.on_disk;
      c.written.erase(hash);
    }
  }
  add_to_memory(root, bytes);
}

std::string CorpusSample::pick(const std::string& root, std::uint64_t choice) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = roots_.find(root);
  if (it == roots_.end() || it->second.entries.empty()) return "";
  return it->second.entries[choice % it->second.entries.size()];
}

std::size_t CorpusSample::in_memory() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t n = 0;
  for (const auto& [root, c] : roots_) n += c.entries.size();
  return n;
}

std::pair<std::size_t, std::size_t> CorpusSample::queued() {
  std::lock_guard<std::mutex> lock(write_mutex_);
  return {to_write_.size(), queued_bytes_};
}

void CorpusSample::add_to_memory(const std::string& root, const std::string& bytes) {
  if (!in_memory_ || bytes.size() > kMemoryEntryMaxBytes) return;
  std::lock_guard<std::mutex> lock(mutex_);
  RootCorpus& c = roots_[root];
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

}  // namespace crosscheck::campaign
