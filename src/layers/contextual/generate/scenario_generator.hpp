// scenario_generator.hpp: generated layer-3 scenarios (docs/scenario-generator.md).
//
// Each row is a canonically valid hooks/intercept request at a boundary the SDK interop clients'
// synthetic hosts accept, with generated capabilities and state, and a scripted response built for
// it by one *family*: either effects valid for the request by construction, in orders the
// composition rules make interesting, or one mutation at a rule's edge. The reference host
// (host::apply) gives every row its `expected` or `expectError` (and `hostExpected` when the
// synthetic host refuses what the SDK layer admits), so the rows run on the real clients with
// `crosscheck scenarios run`. Deterministic for a seed: the same seed, count and families give the
// same bytes on every platform (gen/rng.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "json/value.hpp"
#include "layers/contextual/host/host.hpp"
#include "layers/contextual/host/rule_coverage.hpp"

namespace crosscheck::scenario_gen {

/// The claim a family makes about its rows: the rule the reference host names (a rejecting rule, or
/// host-input for "SDK accepted, host refused"), or kAccepted for a derived result.
inline constexpr const char* kAccepted = "accepted";

struct Family {
  std::string name;   ///< stable: tags and --families name it
  std::string claim;  ///< kAccepted or a rule name of host::rules()
  std::string text;   ///< one line for a person
};

/// Every family, valid-by-construction ones first, then the mutation families.
const std::vector<Family>& families();
/// nullptr when no family has that name.
const Family* find_family(std::string_view name);

/// The boundaries generated: those the Python and Rust 0.10.1 interop clients' synthetic hosts
/// apply (tool.before and turn.finish.before in both; task.change.before and workspace.change.before
/// in Rust's, which Python's generic fixture host also settles).
const std::vector<std::string>& boundaries();

/// One generated row.
struct GeneratedRow {
  std::string id;
  const Family* family = nullptr;
  std::string boundary;
  json::Value request;
  json::Value response;
  host::Applied applied;  ///< the reference host on request and response
  /// The family's claim held (the rule named, or accepted). Construction searches a few draws for
  /// one that holds; a row where none did keeps the last draw, tagged with what the host said.
  bool claim_held = false;
  std::vector<std::string> tags;

  /// The scenario row: id, request, response, expected | expectError (+ hostExpected), tags, comment.
  json::Value row() const;
};

class ScenarioGenerator {
 public:
  /// `validator` (documents intercept-request and intercept-response) must outlive the generator.
  explicit ScenarioGenerator(const canonical::CanonicalValidator& validator) : validator_(validator) {}

  /// The row of `family` for `seed`, named `id`; the rule coverage of the row kept is added to
  /// `coverage` when given.
  GeneratedRow generate(const Family& family, std::uint64_t seed, const std::string& id,
                        host::RuleCoverage* coverage = nullptr) const;

  /// `count` rows for `seed`, the families taken in turn (every family appears once `count` reaches
  /// their number); ids are "<family>-<index>".
  std::vector<GeneratedRow> generate_many(std::uint64_t seed, std::size_t count,
                                          const std::vector<const Family*>& families,
                                          host::RuleCoverage* coverage = nullptr) const;

 private:
  const canonical::CanonicalValidator& validator_;
};

/// The text of a scenario file (upstream format, version 1) holding `rows`, one row per line.
std::string scenario_file_text(const std::vector<GeneratedRow>& rows);

}  // namespace crosscheck::scenario_gen
