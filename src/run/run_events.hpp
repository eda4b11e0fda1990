// run_events.hpp: what a fuzz run writes to its events.jsonl (docs/reports.md, "Event log"): a start
// event, progress points (the reports' curves), one event per finding file written, and an end event
// after the run's last layer. The adapters' campaign (layers 1 and 2, src/campaign) and layer 3
// (src/layers/contextual/campaign) both write through this one class, on the one log of the run folder.
//
// The log matters less than the findings: when a line cannot be written the run warns once and goes
// on. Thread-safe: the campaign's generation thread logs start and progress, its sender thread findings.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/divergence.hpp"
#include "json/value.hpp"
#include "run/event_log.hpp"
#include "run/finding_file.hpp"
#include "run/summary_file.hpp"

namespace crosscheck::run {

/// The totals a progress point (and the end event) shows: the run's, across its layers and resumes.
struct ProgressPoint {
  std::uint64_t generated = 0, sent = 0, dropped = 0;
  std::uint64_t divergent_inputs = 0, contract_inputs = 0, findings = 0;
  std::size_t buckets = 0;
  double coverage = 0;
  /// The layers that were running when the point was taken ("structural", "canonical" for the
  /// adapters' campaign, "contextual" for layer 3): the report marks where the run moved to another.
  std::vector<std::string> layers;
};

/// A run's totals as summary.json has them (every layer that has run so far).
ProgressPoint totals_of(const Summary& summary);

/// The exit code the end event records: by the verdict's rule (verdict/verdict.hpp) over the divergent
/// inputs of the run, without a baseline (the run's verdict over its buckets is verdict.json).
int exit_code_of(std::uint64_t divergent_inputs, std::uint64_t contract_inputs, bool strict);

class RunEvents {
 public:
  /// `folder`: the run folder; `log`: where the warning goes when a line cannot be written.
  RunEvents(const std::string& folder, std::ostream& log);

  /// Opens events.jsonl; `elapsed_before` is the run time of earlier sessions (the log's last "t" is
  /// used when larger: a later layer of the same session goes on from the earlier one's last line).
  void open(double elapsed_before);
  /// Run time over every session (before open(): what was given to it, or 0).
  double elapsed() const;
  /// True when the next progress point is due: every 2 s in this session's first two minutes (short
  /// runs still get a curve), every 10 s later (a day stays about 1 MB).
  bool progress_due() const;

  void start(std::uint64_t seed, const std::vector<std::string>& implementations,
             const std::vector<std::string>& roots, bool resumed, std::uint64_t generated,
             std::uint64_t sent);
  /// Rates are over the interval since the previous point, so the plot shows throughput as it was then.
  void progress(const ProgressPoint& p);
  /// A later layer's writer on the same log: its first point's rates are measured from `p`, now.
  void continue_from(const ProgressPoint& p);
  /// The finding file `f` was written; `first_new` is the divergence that opened a bucket, if any.
  void finding(const Finding& f, const core::Divergence* first_new);
  /// After the run's last layer: its totals; the exit code by exit_code_of.
  void end(const ProgressPoint& totals, bool strict, bool interrupted);

 private:
  void append(std::string_view name, const json::Value& fields);
  void mark(double t, std::uint64_t generated, std::uint64_t sent);

  std::string path_;
  std::ostream& log_;
  std::unique_ptr<EventLog> events_;
  double elapsed_before_ = 0;
  double session_start_ = 0;  // the log's clock when open() was called
  std::mutex mutex_;          // appends from both threads, and warned_
  bool warned_ = false;
  // The previous progress point (the thread that logs progress only).
  std::chrono::steady_clock::time_point last_{};
  double last_t_ = -1;
  std::uint64_t last_generated_ = 0, last_sent_ = 0;
};

}  // namespace crosscheck::run
