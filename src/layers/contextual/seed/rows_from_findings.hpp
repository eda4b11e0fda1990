// rows_from_findings.hpp: layer-3 findings turned into scenario rows (crosscheck scenarios seed,
// docs/scenarios.md "Seeding rows from findings"), the layer-3 counterpart of matrix seed.
//
// A finding qualifies when it is a layer-3 finding of client mode (its divergences are of layer
// "contextual", or it carries "scenario" with mode clients), and its input (the minimized one when the
// reducer wrote it) is a row with a request and a response. The row's expectation is what the C++
// reference host (src/layers/contextual/host) says on that request and response, never an SDK's answer:
// `expected` for a derived result, `expectError` for a rejection, with `hostExpected` when the synthetic host
// refuses what the SDK layer admits. Each SDK of the finding whose answer does not meet that expectation is
// listed for review.
//
// Ids are content-derived: "seed-" + the first 16 hex digits of sha256 of the row's identity, the
// request and the response in a canonical spelling (members sorted, numbers spelled as written, since a
// spelling such as 1.0 can be what a row tests) with the row id taken out of request.id,
// params.event.id and, when it equals the request id, response.id. The row gets that id in all three
// places, so the same request and response give the same id in every run, and one row.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "baseline/run_findings.hpp"
#include "canonical/canonical_validator.hpp"
#include "json/value.hpp"
#include "layers/contextual/rows/scenario_file.hpp"

namespace crosscheck::scenario_seed {

/// An SDK whose answer on the finding's row does not meet the reference host's expectation.
struct Disagreement {
  std::string implementation;
  std::string status;   ///< the client's status in the finding (passed, failed, crash, ...)
  json::Value actual;   ///< what it derived ({"rejected": true} for a rejection), null for none
  std::string verdict;  ///< against the seeded row: "rejected the response where a result was expected", ...
};

struct SeededRow {
  std::string id;
  std::string finding;  ///< the finding file the row came from (the .min.json when there is one)
  std::string origin;   ///< "<scenario file name> row <id>" from the finding, "" when it has none
  std::string answer;   ///< the reference host: "accepted", "rejected", "host-refused"
  std::string rule;     ///< the rule it names ("" when accepted)
  std::string message;  ///< what broke it
  std::string text;     ///< the row's JSON text, one line
  std::vector<Disagreement> disagreements;
};

struct SeedResult {
  std::vector<SeededRow> added;  ///< sorted by id
  /// The rows to confirm, sorted by id: the added ones an SDK disagrees on, and the rows of the merge
  /// file a finding repeats on which an SDK still disagrees (under the merge file's id), so that seeding
  /// into the same file again keeps them listed.
  std::vector<SeededRow> review;
  std::size_t merged = 0;                      ///< rows of the merge file, kept byte for byte
  std::size_t duplicates = 0;                  ///< already in the merge file, or seen twice
  std::map<std::string, std::size_t> skipped;  ///< reason -> findings
  std::string scenario_text;                   ///< the scenario file to write
  std::string review_text;                     ///< the review list (crosscheck-scenario-review/1)
};

/// The identity of a request and response: the text the id is the hash of (the row id taken out).
std::string identity_text(const json::Value& request, const json::Value& response);
/// "seed-" + 16 hex digits of sha256(identity_text(request, response)).
std::string seeded_id(const json::Value& request, const json::Value& response);

/// Seeds rows from `findings`; with `merge`, keeps its rows byte for byte first and appends the new
/// ones sorted by id. The text is checked with the scenario reader before it is returned. Throws Fatal
/// (exit 2): a layer-3 finding whose input is not a row (naming the file and field), or a conflict:
/// a row of `merge` with the same request and response whose expectation the reference host does not
/// meet, or with the seeded id and other content, naming the file and both ids.
SeedResult seed_scenarios(const canonical::CanonicalValidator& validator,
                          const std::vector<baseline::RunFinding>& findings,
                          const scenario::ScenarioFile* merge, const std::string& out_path);

}  // namespace crosscheck::scenario_seed
