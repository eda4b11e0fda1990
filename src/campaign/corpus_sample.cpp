// corpus_sample.cpp: the corpus folder and its bounded in-memory sample (see corpus_sample.hpp).
#include "campaign/corpus_sample.hpp"

#include <algorithm>
#include <filesystem>

#include "campaign/splitmix.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "schema/sha256.hpp"
#include "util/file.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMemoryEntriesPerRoot = 1024;
constexpr std::size_t kMemoryBytesPerRoot = std::size_t{512} << 10;
constexpr std::size_t kMemoryEntryMaxBytes = std::size_t{64} << 10;  // larger ones stay on disk only

}  // namespace

CorpusSample::CorpusSample(std::string folder, std::size_t files_per_root)
    : folder_(std::move(folder)), files_per_root_(files_per_root) {}

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
          ++roots_[dir.path().filename().string()].on_disk;
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
  {
    std::lock_guard<std::mutex> lock(mutex_);
    room = roots_[root].on_disk < files_per_root_;
  }
  if (room) {
    fs::path dir = fs::path(folder_) / root;
    std::error_code ec;
    fs::create_directories(dir, ec);
    fs::path file = dir / schema::sha256_hex(bytes).substr(0, 40);
    if (!fs::exists(file)) {
      run::write_file_atomically(file.string(), bytes);
      std::lock_guard<std::mutex> lock(mutex_);
      ++roots_[root].on_disk;
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

void CorpusSample::add_to_memory(const std::string& root, const std::string& bytes) {
  if (bytes.size() > kMemoryEntryMaxBytes) return;
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
