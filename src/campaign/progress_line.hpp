// progress_line.hpp: the progress line of a fuzz run on its log: inputs and adapter throughput,
// divergences per layer and per class, buckets and schema coverage. On a terminal (--live) one line is
// redrawn in place; otherwise a line is printed every few seconds, and the final one always ends the line.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace crosscheck::campaign {

struct ProgressFigures {
  double elapsed = 0;  ///< seconds of this session
  std::uint64_t generated = 0, sent = 0;
  /// Divergences per class; left empty, the line leaves them out (short enough for a terminal line).
  std::map<std::string, std::size_t> by_class;
  std::map<std::string, std::size_t> by_layer;  ///< the run's layers, each with its divergences
  std::size_t buckets = 0;
  double coverage_percent = 0;
  std::optional<double> canonical_coverage_percent;  ///< layer 2, when the run has the canonical layer
};

void print_progress_line(std::ostream& log, const ProgressFigures& figures, bool live, bool final_line);

}  // namespace crosscheck::campaign
