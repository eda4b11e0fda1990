// state_file.hpp: RUN/state.json, where a fuzz run stands (schemas/state.schema.json): iterations
// done, inputs generated and sent, run time over every session. `fuzz` rewrites it every few seconds
// and at its end, atomically, so a kill -9 leaves the last complete copy; a resumed `fuzz` and `merge`
// (for a run killed before its summary) read it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

namespace crosscheck::run {

struct RunPosition {
  std::uint64_t iterations = 0;  ///< the next iteration to run
  std::uint64_t generated = 0, sent = 0;
  double elapsed = 0;  ///< run time in seconds, over every session
  /// Layer 3 (src/layers/contextual/campaign): the next batch of generated scenarios to run.
  std::uint64_t contextual_batches = 0;
};

/// Writes RUN/state.json atomically.
void write_state(const std::filesystem::path& run_dir, const RunPosition& p);
/// RUN/state.json, or nullopt when the folder has none. Fatal (exit 2) naming the file, the JSON
/// Pointer and the expectation when it is damaged or does not fit its schema.
std::optional<RunPosition> read_state(const std::filesystem::path& run_dir);

}  // namespace crosscheck::run
