// event_log.hpp: the append-only events.jsonl of a run folder (docs/reports.md, "Event log").
//
// Each line is one JSON object {"t": seconds since the run first started, "event": NAME, ...fields},
// written with a single write() on an O_APPEND descriptor, so concurrent writers (the campaign's two
// threads, the reducer) never interleave and a kill -9 leaves at most one partial last line. "t" is
// run time, not wall time: it continues from the last line already in the file (or a larger saved
// elapsed time), so a resumed run's events follow its earlier ones on one time axis.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"
#include "run/layout.hpp"

namespace crosscheck::run {

class EventLog {
 public:
  /// Opens (creating) `path` for appending. `elapsed_before`: run time already spent in earlier
  /// sessions (e.g. state.json's "elapsed"); the larger of it and the last "t" in the file is used.
  /// A file that does not end in a newline (a line cut by a kill) is first terminated, so the next
  /// event starts on a line of its own. Never throws: a log that cannot be opened is disabled and
  /// error() says why (findings matter more than the log).
  explicit EventLog(std::string path, double elapsed_before = 0);
  ~EventLog();
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  /// Seconds since the run first started (run time across resumes).
  double elapsed() const;
  /// Appends {"t", "event", ...members of `fields`}; `fields` must be an object (or null). Returns
  /// false (and records error()) when the line could not be written whole.
  bool append(std::string_view event, const json::Value& fields);
  const std::string& path() const { return path_; }
  /// Empty while everything was written; otherwise the first failure.
  std::string error() const;

  /// The "t" of the last complete line of an events file, or nullopt (no file, no complete line).
  static std::optional<double> last_time(const std::string& path);

 private:
  std::string path_;
  int fd_ = -1;
  double base_ = 0;
  std::chrono::steady_clock::time_point opened_;
  mutable std::mutex mutex_;
  std::string error_;
};

/// One parsed line of an events file.
struct Event {
  double t = 0;
  std::string name;
  json::Value fields;  ///< the whole line's object
};

struct EventFile {
  std::vector<Event> events;
  std::size_t skipped = 0;         ///< lines that were not a JSON object with a numeric "t" and "event"
  bool partial_last_line = false;  ///< the file did not end in a newline (a writer was killed mid-line)
};

/// Reads an events file; a missing file gives no events. Lines that do not parse are skipped and
/// counted, never fatal: the log is append-only and may end in a cut line.
EventFile read_events(const std::string& path);

}  // namespace crosscheck::run
