// corpus_sample.hpp: a fuzz run's corpus, as files in corpus/<root>/ and as the in-memory sample the
// generation step mutates.
//
// The folder keeps at most files_per_root entries per root (--corpus-limit): most inputs of a long
// run show a decoder outcome not seen before, and an unbounded folder grew by 200 MB in ten minutes.
// The memory sample is bounded too, by entries and bytes per root, so that memory stays flat over a
// long run; it keeps the bytes only and the generation step parses an entry again when it picks it
// (a parse costs microseconds, a kept tree ten times the bytes). Entries past the folder's bound go
// to the memory sample only; a resumed run starts from the folder's.
//
// The files are written by a thread of its own at idle priority (SCHED_IDLE): a run keeps thousands
// of entries in its first minute, each a file creation that cost the generation thread as much CPU
// as generating the input (the ext4 inode search of a busy disk), CPU the SDK under test then lacked.
// The writer only uses a core nobody else wants; what it has not written yet waits in a bounded
// queue (beyond it, an entry stays in memory only: a corpus entry steers generation, it is not a
// finding). flush() and the destructor write what is still queued in the calling thread, at its
// priority (an idle-priority writer may not run at all on a busy machine); a kill -9 loses the
// queue, which costs a resumed run nothing but those entries.
//
// Thread-safe: the generation thread keeps and picks entries, the sender thread keeps them too.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "campaign/hash_set64.hpp"
#include "schema/ir.hpp"

namespace crosscheck::campaign {

class CorpusSample {
 public:
  /// The writer's queue, at most: past either bound an entry stays in memory only. On two busy cores
  /// the idle-priority writer hardly runs, and a queue of 8192 files (32 MiB) filled in minutes 2-3
  /// of a run and held 6.6 MB of inputs; 1024 hold about 0.8 MB (docs/memory.md).
  static constexpr std::size_t kWriteQueueFiles = 1024;
  static constexpr std::size_t kWriteQueueBytes = std::size_t{4} << 20;

  /// kFlushOnly: no writer thread, the queue is written by flush() and the destructor only (a writer
  /// that never runs, for the tests of the queue's bound).
  enum class Writer { kThread, kFlushOnly };

  /// `folder`: the run's corpus/ folder (created by the run state).
  /// `in_memory` false: a folder only (--sent-sample), never picked from, so no memory sample.
  CorpusSample(std::string folder, std::size_t files_per_root, bool in_memory = true,
               Writer writer = Writer::kThread);
  /// Writes what is queued (an error is dropped here: call flush() to see it).
  ~CorpusSample();
  CorpusSample(const CorpusSample&) = delete;
  CorpusSample& operator=(const CorpusSample&) = delete;

  /// Reads corpus/<root>/* back into the sample (a resumed run); returns the number of files read.
  std::size_t load_folder();
  /// Keeps the seed files (--seed: files, or folders read recursively, in sorted order). A file named
  /// <root>.* belongs to that root, any other goes to the fuzzed roots in turn; an unreadable one is
  /// skipped with a warning.
  void load_seeds(const std::vector<std::string>& paths, const schema::Ir& ir,
                  const std::vector<const schema::Root*>& roots, std::ostream& log);

  /// Keeps `bytes` as an entry of `root`: a file corpus/<root>/<hash> while the folder has room for
  /// one more (queued for the writer thread), and in the memory sample. Rethrows the writer's
  /// error (Fatal: a full disk), if it had one.
  void keep(const std::string& root, const std::string& bytes);
  /// Writes every queued file, in the calling thread once the writer thread has finished the one it is
  /// on; rethrows the writer's error, if it had one.
  void flush();
  /// The entry `choice` (modulo the count) of root's memory sample, or "" when it has none.
  std::string pick(const std::string& root, std::uint64_t choice);
  /// Entries in memory, over every root.
  std::size_t in_memory();
  /// Files waiting for the writer, and their bytes.
  std::pair<std::size_t, std::size_t> queued();

 private:
  struct RootCorpus {
    std::vector<std::string> entries;
    std::size_t bytes = 0;
    std::uint64_t added = 0;  // entries ever offered, for the choice of the one to replace
    std::size_t on_disk = 0;  // files in corpus/<root>/, and queued for it
    HashSet64 written;        // hashes of the entries read or queued
  };

  void add_to_memory(const std::string& root, const std::string& bytes);
  void write_loop();
  void write_entry(const std::string& root, const std::string& bytes);
  // Pops and writes the first queued entry with `lock` (on write_mutex_) released meanwhile; false
  // when that failed (write_error_ is then set and the queue emptied).
  bool write_next(std::unique_lock<std::mutex>& lock);

  std::string folder_;
  std::size_t files_per_root_;
  bool in_memory_;
  Writer writer_mode_;
  std::mutex mutex_;
  std::map<std::string, RootCorpus> roots_;

  // The writer thread and its queue (root, bytes), under write_mutex_.
  std::mutex write_mutex_;
  std::condition_variable write_cv_, written_cv_;
  std::deque<std::pair<std::string, std::string>> to_write_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false, closing_ = false;
  int draining_ = 0;  // flush() calls under way: the writer thread takes nothing meanwhile
  std::exception_ptr write_error_;
  std::thread writer_;
};

}  // namespace crosscheck::campaign
