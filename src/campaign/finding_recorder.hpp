// finding_recorder.hpp: what the adapters' answers add up to, and the finding files of a fuzz run.
//
// Counts the divergent inputs (and those with a contract divergence), the divergences per class,
// root and implementation, the buckets and the roots each bucket was seen on. A bucket keeps at most
// max_per_bucket finding files: findings/<name> is written when an input shows a bucket below its
// cap, then logged in events.jsonl and passed to the on_finding callback, in that order and in this
// one place. A resumed run reads findings/ back, so the files already there count towards the caps.
//
// record() runs on the sender thread; counts() may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "campaign/campaign.hpp"
#include "campaign/sender.hpp"
#include "core/layers.hpp"
#include "core/payload_results.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "run/run_events.hpp"

namespace crosscheck::campaign {

class FindingRecorder {
 public:
  /// Creates `findings_dir` if needed (Fatal when it cannot be created or written). `layers`: the
  /// layers of the run, which by_layer lists from the start.
  FindingRecorder(std::string findings_dir, std::size_t max_per_bucket, core::Layers layers,
                  run::RunEvents& events, std::function<void(const WrittenFinding&)> on_finding);

  /// Reads the finding files already in the folder (a resumed run); returns how many. A .min.json is
  /// the reducer's copy of a finding beside it: not another witness, so not read.
  std::size_t load_folder();
  /// Roots buckets were seen on without a file there (a previous session's summary.json).
  void add_bucket_roots(const std::map<std::string, std::set<std::string>>& roots);

  /// Counts one input's results and writes its finding file when one of its buckets is below the cap.
  void record(const Pending& input, const core::PayloadResults& results);

  struct Counts {
    std::uint64_t divergent_inputs = 0, contract_inputs = 0;
    std::uint64_t findings_total = 0;    ///< finding files in the folder (read back and written)
    std::uint64_t findings_written = 0;  ///< written by this session
    std::size_t buckets = 0;
    std::map<std::string, std::size_t> by_class, by_root, by_implementation;
    /// Divergences per layer ("structural", "canonical"), whether or not any were found.
    std::map<std::string, std::size_t> by_layer;
    /// Layer 2: inputs validated, and per implementation the inputs it answered unsupported (no
    /// canonical layer in its hello, or a document it does not validate): left out of that comparison.
    std::uint64_t validated_inputs = 0;
    std::map<std::string, std::size_t> canonical_unsupported;
  };
  Counts counts() const;
  /// Bucket -> the roots it was seen on.
  std::map<std::string, std::set<std::string>> bucket_roots() const;
  const std::string& dir() const { return store_.dir(); }

 private:
  run::FindingStore store_;
  std::size_t max_per_bucket_;
  run::RunEvents& events_;
  std::function<void(const WrittenFinding&)> on_finding_;
  mutable std::mutex mutex_;
  Counts counts_;
  std::map<std::string, std::size_t> bucket_counts_;           // bucket -> inputs seen in it
  std::map<std::string, std::set<std::string>> bucket_roots_;  // bucket -> roots it was seen on
  std::set<std::string> written_names_;                        // finding files in the folder
};

}  // namespace crosscheck::campaign
