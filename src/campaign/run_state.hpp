// run_state.hpp: what makes a fuzz run's folder resumable, through the files run/ owns.
//
// run.json is the run's configuration (seed, roots, implementations, schema, shard, deterministic),
// written once: a folder whose run.json differs is refused, so that a resumed run never mixes two
// runs' findings. state.json says where the run is (iterations done, inputs generated and sent, run
// time) and coverage.json what the C++ decoder has exercised; both are saved every few seconds and at
// the end, atomically, so a kill -9 leaves the last complete copy (run/run_file.hpp,
// run/state_file.hpp, run/coverage_file.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "campaign/campaign.hpp"
#include "coverage/canonical_coverage.hpp"
#include "coverage/schema_coverage.hpp"
#include "run/state_file.hpp"
#include "schema/ir.hpp"

namespace crosscheck::campaign {

/// Where a run stands: read from state.json on resume, saved as the run goes.
using RunPosition = run::RunPosition;

/// Creates the folder and its corpus/, then checks or writes run.json. Returns true when the folder
/// already belongs to this configuration (the run resumes). Throws Fatal (exit 2) when it cannot be
/// created or belongs to another configuration.
bool open_run_folder(const schema::Ir& ir, const CampaignOptions& options);

/// state.json of the folder; a missing file gives a run at its start. Fatal (exit 2) naming the file
/// when it is damaged.
RunPosition read_position(const std::string& folder);
/// Adds coverage.json of the folder to `coverage` (and its layer-2 part to `canonical`, when both
/// exist); a missing file adds nothing. Fatal (exit 2) naming the file when it is damaged.
void read_coverage(const std::string& folder, SchemaCoverage& coverage,
                   CanonicalCoverage* canonical = nullptr);

/// Writes state.json, then coverage.json (with its layer-2 part when `canonical` is given).
void save_state(const std::string& folder, const RunPosition& position, const SchemaCoverage& coverage,
                const CanonicalCoverage* canonical = nullptr);

}  // namespace crosscheck::campaign
