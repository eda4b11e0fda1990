// scenario_reducer.hpp: minimizes a layer-3 finding (one scenario row) while it stays in its bucket.
//
// The row is a lossless JSON tree (number spellings and member order kept). Candidates drop members
// and elements (effects, optional request members, capabilities, expected keys), replace values with
// simpler ones (null, 0, "", {}, [], false, 1) and shorten strings (halves, then one code point off
// either end), repeated to a fixed point. The row's id, request.id and request.params.event.id are
// never touched: the Rust client picks its code path by the id (docs/findings.md §12).
//
// In-process screening costs no client run: a candidate must read back as a scenario row
// (src/layers/contextual/rows reader), and its request (its response) must be canonical on the snapshot when
// the original's was (src/canonical).
//
// A client process per candidate is slow, so candidates go out in batches, one scenario file per
// client run, which needs distinct ids: the first run probes whether the original keeps its bucket
// under a renamed id beside itself. If so, candidates run renamed (`<id>~<n>`) in batches and the
// result is confirmed alone under the real id (walking back the accepted steps if it is not); if
// not, every candidate runs alone under the real id. The budget counts oracle calls (one call = one
// run of every client involved, on one batch).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "layers/contextual/rows/scenario_file.hpp"
#include "run/finding_file.hpp"

namespace crosscheck::reduce {

/// Runs rows (distinct ids) on the clients involved and the reference, one client run each for the
/// whole batch; one finding per row (nullopt when nothing differs).
using ScenarioOracle =
    std::function<std::vector<std::optional<run::Finding>>(const std::vector<scenario::Row>&)>;

struct ScenarioReduceOptions {
  std::size_t budget = 60;  ///< oracle calls (client runs of every client involved), the probe included
  std::size_t batch = 32;   ///< candidates per oracle call when renamed ids keep the bucket
  const canonical::CanonicalValidator* validator = nullptr;  ///< screening; nullptr: none
  std::string request_document = "intercept-request";
  std::string response_document = "intercept-response";
  double max_seconds = 0;             ///< wall clock (0: none)
  std::function<bool()> should_stop;  ///< stop with the best so far
  std::ostream* log = nullptr;        ///< one line per oracle call when set
};

struct ScenarioReduceResult {
  bool reproduced = false;  ///< the original row kept its bucket under its own id
  std::string input;        ///< the smallest row found (compact JSON), the original's bytes when !reproduced
  std::size_t calls = 0;    ///< oracle calls
  std::size_t candidates = 0;  ///< rows sent to the clients
  std::size_t screened = 0;    ///< candidates ruled out in process
  bool batched = false;        ///< renamed ids kept the bucket: candidates went out in batches
  bool walked_back = false;    ///< the batched result did not confirm under the real id
  bool budget_exhausted = false;
  bool stopped = false;
  std::optional<run::Finding> finding;  ///< the oracle's finding of `input` under the real id
};

/// The row of a layer-3 finding, checked: its input must read back as one scenario row whose id is
/// the finding's scenario.id. The error names the file and the field.
Result<scenario::Row, std::string> finding_row(const std::string& path, const run::Finding& finding);

/// A row's size as reduction measures it: the bytes of its compact JSON.
std::size_t row_size(const std::string& row_text);

/// Reduces `row` for `bucket` (a bucket id of the finding).
ScenarioReduceResult reduce_scenario(const scenario::Row& row, const std::string& bucket,
                                     const ScenarioOracle& oracle, const ScenarioReduceOptions& options);

struct ScenarioFileReduction {
  std::string finding_path, min_path, bucket;
  std::size_t size_before = 0;  ///< row_size of the original row
  ScenarioReduceResult result;
  bool written = false;  ///< false: an existing .min.json was at least as small and was kept
  std::string note;
};

/// Reduces the loaded layer-3 finding `f` (from `path`) for `bucket` and writes <name>.min.json beside
/// it as layer-1 reduction does (format crosscheck-finding/1 with "reduction", atomically, an existing
/// one replaced only by a smaller row). The error, naming the file, covers a malformed row and a
/// bucket that does not reproduce; nothing is written then.
Result<ScenarioFileReduction, std::string> reduce_scenario_finding(const std::string& path,
                                                                   const run::Finding& f,
                                                                   const std::string& bucket,
                                                                   const ScenarioOracle& oracle,
                                                                   const ScenarioReduceOptions& options);

/// The oracle for a finding's clients (its scenario member says which, and with what configuration),
/// and the reference validator of its snapshot for screening.
struct ScenarioRig {
  ScenarioOracle oracle;
  const canonical::CanonicalValidator* validator = nullptr;
};
using ScenarioOracleFactory = std::function<ScenarioRig(const run::Finding&)>;

struct ScenarioRunReduction {
  std::vector<ScenarioFileReduction> reduced;
  std::vector<std::string> skipped;
  std::size_t calls = 0;
  std::size_t buckets_left = 0;
};

/// `crosscheck reduce DIR` on a scenarios run folder: for every bucket no .min.json covers yet, the
/// smallest row of that bucket without a .min.json, contract buckets first, `total_budget` oracle
/// calls shared fairly. Findings that do not load are skipped with a note.
ScenarioRunReduction reduce_scenario_run_folder(const std::string& findings_dir,
                                                const ScenarioOracleFactory& factory,
                                                std::size_t total_budget, const ScenarioReduceOptions& base,
                                                std::ostream& log);

}  // namespace crosscheck::reduce
