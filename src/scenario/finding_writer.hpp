// finding_writer.hpp: the one writer (and reader) of layer-3 findings
// (schemas/scenario-finding.schema.json).
//
// Each difference is written the moment it is found, atomically, as OUT/findings/<class>-<16 hex>.json
// (the hash over bucket and row bytes, so a run again writes the same name), after the one-row
// scenario file <same>.scenario.json that its replay command runs. Kept here, beside the scenario
// formats, until the run folder's owner (src/run/) takes the finding files of every layer: the
// writer only needs a folder.
#pragma once

#include <string>
#include <vector>

#include "json/value.hpp"
#include "scenario/verdict.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario {

struct FindingContext {
  std::string scenario_file;         ///< where the row came from
  std::vector<std::string> clients;  ///< every client the row ran on, for the replay command
};

/// Writes the finding for `difference` on `row`; returns the finding file's path. Throws Fatal
/// naming the path when it cannot be written (a full disk).
std::string write_finding(const std::string& out_dir, const Row& row, const Difference& difference,
                          const ClientResults& results, const FindingContext& context);

/// The same for a request-admission difference (`scenarios run --servers`): one entry per
/// implementation, the reference's first; the replay command asks the servers again.
std::string write_admission_finding(const std::string& out_dir, const Row& row, const Difference& difference,
                                    const AdmissionResults& results, const FindingContext& context);

/// Reads a finding file back, checked against the schema; the error names the file and field.
Result<json::Value, std::string> read_finding(const std::string& path);

}  // namespace crosscheck::scenario
