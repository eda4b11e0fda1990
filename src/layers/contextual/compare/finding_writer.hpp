// finding_writer.hpp: a scenario row's differences as a run-folder finding (crosscheck-finding/1
// with "scenario", schemas/finding.schema.json), written through src/run's one writer.
//
// One finding per row, like one finding per payload at layers 1 and 2: its input is the row's exact
// bytes, its root intercept_response (the clients judge the scripted response) or intercept_request
// (--servers: the servers admit the request), one divergence per difference (layer "contextual",
// class contextual-acceptance, contextual-result, contextual-expectation or request-admission; the
// signature is the scenario bucket text, the bucket id its hash) and one crash / timeout / protocol
// divergence per implementation whose batch broke on the row. Each implementation's answer is an
// ImplResult (accepted = derived or admitted, rejected = rejected or refused; encoded = the derived
// result as JSON text, message = the error text) so that baselines, blame, verdicts and every
// report read it as they read any finding; the rest (status, expectation, report row, notes, batch
// folder, the clients to replay on) is in the finding's "scenario".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "layers/contextual/compare/scenario_verdict.hpp"

// src/run is a private dependency of this module: callers include run/finding_file.hpp for these.
namespace crosscheck::run {
struct Finding;
class FindingStore;
}  // namespace crosscheck::run

namespace crosscheck::scenario {

struct FindingContext {
  std::string scenario_file;         ///< where the row came from
  std::vector<std::string> clients;  ///< every client the row ran on (not the reference), for replay
  std::string client_config;         ///< --client-config ("" for the default), for replay
  std::string schema;                ///< --schema ("" for the default), for replay
};

/// The finding of one row run on clients, or nullopt when nothing differs and no batch broke.
std::optional<run::Finding> row_finding(const Row& row, const std::vector<Difference>& differences,
                                        const ClientResults& results, const FindingContext& context);

/// The same for request admission (`scenarios run --servers`): one result per implementation, the
/// reference's first.
std::optional<run::Finding> admission_finding(const Row& row, const std::vector<Difference>& differences,
                                              const AdmissionResults& results, const FindingContext& context);

/// Writes `finding` into `store` with its replay command (`crosscheck replay PATH`); returns the path.
std::string write_row_finding(run::FindingStore& store, run::Finding finding);

}  // namespace crosscheck::scenario
