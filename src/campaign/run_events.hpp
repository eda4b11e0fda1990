// run_events.hpp: what a fuzz run writes to its events.jsonl (docs/reports.md, "Event log"): a start
// event, progress points (the reports' curves), one event per finding file written, and an end event.
//
// The log matters less than the findings: when a line cannot be written the run warns once and goes
// on. Thread-safe: the generation thread logs start, progress and end, the sender thread findings.
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
#include "run/json_file.hpp"
#include "run/layout.hpp"

namespace crosscheck::campaign {

/// The totals a progress point shows.
struct ProgressPoint {
  std::uint64_t generated = 0, sent = 0, dropped = 0;
  std::uint64_t divergent_inputs = 0, contract_inputs = 0, findings = 0;
  std::size_t buckets = 0;
  double coverage = 0;
};

class RunEvents {
 public:
  /// `folder`: the run folder; `log`: where the warning goes when a line cannot be written.
  RunEvents(const std::string& folder, std::ostream& log);

  /// Opens events.jsonl; `elapsed_before` is the run time of earlier sessions.
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
  /// The finding file `f` was written; `first_new` is the divergence that opened a bucket, if any.
  void finding(const run::Finding& f, const core::Divergence* first_new);
  void end(const ProgressPoint& totals, int exit_code, bool interrupted);

 private:
  void append(std::string_view name, const json::Value& fields);
  void mark(double t, std::uint64_t generated, std::uint64_t sent);

  std::string path_;
  std::ostream& log_;
  std::unique_ptr<run::EventLog> events_;
  double elapsed_before_ = 0;
  std::mutex mutex_;  // appends from both threads, and warned_
  bool warned_ = false;
  // The previous progress point (generation thread only).
  std::chrono::steady_clock::time_point last_{};
  double last_t_ = -1;
  std::uint64_t last_generated_ = 0, last_sent_ = 0;
};

}  // namespace crosscheck::campaign
