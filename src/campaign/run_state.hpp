// run_state.hpp: the files that make a fuzz run's folder resumable, and their one reader and writer.
//
// run.json is the run's configuration (seed, roots, implementations, schema, shard, deterministic),
// written once: a folder whose run.json differs is refused, so that a resumed run never mixes two
// runs' findings. state.json says where the run is (iterations done, inputs generated and sent, run
// time) and coverage.json what the C++ decoder has exercised; both are saved every few seconds and at
// the end, atomically, so a kill -9 leaves the last complete copy.
#pragma once

#include <cstdint>
#include <string>

#include "campaign/campaign.hpp"
#include "coverage/schema_coverage.hpp"
#include "schema/ir.hpp"

namespace crosscheck::campaign {

/// Where a run stands: read from state.json on resume, saved as the run goes.
struct RunPosition {
  std::uint64_t iterations = 0;  ///< the next iteration to run
  std::uint64_t generated = 0, sent = 0;
  double elapsed = 0;  ///< run time, over every session
};

/// Creates the folder and its corpus/, then checks or writes run.json. Returns true when the folder
/// already belongs to this configuration (the run resumes). Throws Fatal (exit 2) when it cannot be
/// created or belongs to another configuration.
bool open_run_folder(const schema::Ir& ir, const CampaignOptions& options);

/// state.json of the folder; a missing or unreadable file gives a run at its start.
RunPosition read_position(const std::string& folder);
/// Adds coverage.json of the folder to `coverage`; a missing or unreadable file adds nothing.
void read_coverage(const std::string& folder, SchemaCoverage& coverage);

/// Writes state.json, then coverage.json.
void save_state(const std::string& folder, const RunPosition& position, const SchemaCoverage& coverage);

}  // namespace crosscheck::campaign
