// finding_file.hpp: one self-contained JSON file per finding, written atomically the moment it is
// seen (temporary file in the same folder, fsync, rename), so an interrupted run keeps every finding
// complete and a resumed run can tell what it already has.
//
// Names follow the artifact kind (STYLE.md 12): diverge-<hash>.json for divergences,
// crash-<impl>-<hash>.json and timeout-<impl>-<hash>.json when an adapter died or hung. <hash> is the
// first 40 hex digits of sha256(root "\n" input), so the same payload is one finding, not many.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "core/layers.hpp"
#include "core/payload_results.hpp"
#include "json/value.hpp"
#include "run/json_file.hpp"
#include "util/result.hpp"

namespace crosscheck::run {

/// How a minimized finding (<name>.min.json, written by the reducer) came from its original.
struct Reduction {
  std::string from;  ///< file name of the original finding, beside it
  std::uint64_t calls = 0;
  std::uint64_t bytes_before = 0;
  std::uint64_t bytes_after = 0;
};

/// The comparison layer of `crosscheck scenarios run` (layer 3), as Divergence::layer records it.
inline constexpr const char* kContextualLayer = "contextual";

/// Layer 3: a finding that is one scenario row (its bytes are the finding's input). What each
/// implementation answered beyond its ImplResult, and what replay needs to run the row again.
struct ScenarioEntry {
  std::string implementation;
  std::string status;                        ///< passed, failed, ..., crash; admitted / refused (--servers)
  std::string answer;                        ///< derived, rejected, none; admitted, refused
  std::optional<std::string> expectation;    ///< against the row: "met" or how it is not
  std::optional<json::Value> report_row;     ///< the client's report row as written
  std::optional<std::string> server_answer;  ///< --servers: the server's line
  std::vector<std::string> notes;
  std::string batch;  ///< the batch or session folder ("" when none)
};
struct ScenarioCase {
  std::string mode;                  ///< kScenarioClients or kScenarioServers
  std::string file;                  ///< the scenario file the row came from
  std::string id;                    ///< the row id
  std::vector<std::string> clients;  ///< what the row ran on, without the reference
  std::string client_config;         ///< --client-config of the run ("" when the default)
  std::string schema;                ///< --schema of the run ("" when the default)
  std::vector<ScenarioEntry> entries;
};
inline constexpr const char* kScenarioClients = "clients";
inline constexpr const char* kScenarioServers = "servers";

struct Finding {
  std::string root;
  std::string input;  ///< exact payload bytes
  std::vector<core::Divergence> divergences;
  std::vector<core::ImplResult> results;
  /// Layer 2, when the run had it: the schema document the input was validated as, and each
  /// implementation's canonical verdict (its error paths, the reference's keywords and traits).
  std::string document;
  std::vector<core::ValidateResult> validations;
  std::vector<std::string> traits;       ///< implementation-defined traits of the input
  std::optional<std::uint64_t> seed;     ///< generator seed, when generated
  std::string source;                    ///< file path or generator name
  std::string replay;                    ///< one-line command that replays it
  std::optional<Reduction> reduction;    ///< only in a minimized finding ("reduction" in the file)
  std::optional<ScenarioCase> scenario;  ///< layer 3: the row's context ("scenario" in the file)
};

/// The finding for one payload's results: its root, input, divergences, every implementation's result
/// at each layer run and the input's traits. The seed, source and replay command are the caller's to fill in.
Finding finding_of(const core::PayloadResults& results);

/// The layers that reproduce a finding: structural always (a layer-inconsistency needs it too), and
/// canonical when the finding has layer-2 verdicts or a layer-2 divergence.
core::Layers finding_layers(const Finding& finding);

/// File name for a finding: "diverge-<hash>.json", "crash-python-<hash>.json", ...
std::string finding_file_name(const Finding& finding);
/// The 40-hex identity of (root, input).
std::string finding_hash(const std::string& root, const std::string& input);

json::Value finding_to_json(const Finding& finding);
Result<Finding, std::string> finding_from_json(const json::Value& value);

class FindingStore {
 public:
  /// Creates `dir` if needed. Fatal (exit 2) if it cannot be created or written.
  explicit FindingStore(std::string dir);
  const std::string& dir() const { return dir_; }

  /// Writes the finding atomically; returns its path. Existing identical findings are kept as they are.
  std::string write(const Finding& finding);
  /// Loads one finding file, checked against schemas/finding.schema.json; the error names the file,
  /// the JSON Pointer and what was expected there (another format version included).
  static Result<Finding, std::string> load(const std::string& path);

 private:
  std::string dir_;
};

}  // namespace crosscheck::run
