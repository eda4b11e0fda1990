// selftest.hpp: `crosscheck selftest`, proof that the harness finds known faults and raises no false
// alarms (docs/selftest.md).
//
// Seeded faults: selftest/faulty_adapter.py puts one contract violation at a time in front of the
// reference adapter (`crosscheck serve-adapter`); faults.json lists each with the divergence class a
// correct harness puts it in and a hand-minimal witness payload. For each fault the self-test first
// checks the witness (one payload through the implementation set: is the fault real?), then runs a
// differential fuzz campaign of the in-process C++ decoder against the faulty adapter until the first
// finding in the expected class or the time limit, and reduces that finding when a reducer is there.
// Layer-2 faults (layer "canonical") alter the validate op's answers and are fuzzed with the
// canonical layer. Layer-3 faults (layer "contextual", contextual_faults.hpp) are client stand-ins
// (selftest/client_standin.py) in front of the real Python interop client, run on generated scenario
// rows against the reference host; the rewording stand-in must give no difference. No false alarms:
// selftest/equivalent_adapter.py differs from the reference only in ways the contract allows, at both layers;
// a campaign against it must give no contract finding.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "exec/implementation_set.hpp"
#include "json/value.hpp"
#include "schema/ir.hpp"
#include "util/result.hpp"

namespace crosscheck::selftest {

struct Fault {
  std::string name, area, description;
  std::string expected_class;  ///< a divergence class name ("acceptance", "crash", ...)
  /// The comparison layer the fault lives in: "structural" (the decode op, --fault) or "canonical"
  /// (the validate op, --canonical-fault; fuzzed with the canonical layer, found at that layer).
  std::string layer = "structural";
  bool implementation_defined = false;  ///< the expected divergence carries the implementation-defined label
  std::vector<std::string> aliases;
  std::string witness_root;     ///< snake_case root
  std::string witness_payload;  ///< the hand-minimal payload's bytes
  /// A schema bundle of its own (path from the repository root), for a fault no document of the real
  /// schema can show (utf16-length: every AHP length bound is minLength 1 or an ASCII pattern). The
  /// fault is fuzzed on it, the reference behind the proxy loads it too; empty: the run's schema.
  std::string schema;
  /// Layer 3: the scenario generator families whose rows exercise the broken rule
  /// (src/layers/contextual/generate).
  std::vector<std::string> families;
  /// Layer 3: other classes a first detection may rightly have (continuation-per-effect is a result
  /// difference while the allowance lasts and an acceptance difference where it runs out).
  std::vector<std::string> also_right_classes;
};

inline constexpr const char* kContextualLayer = "contextual";

/// Reads a faults table (selftest/faults.json); errors name the file, the entry and the field.
Result<std::vector<Fault>, std::string> load_faults(const std::string& path);

/// <repository>/selftest: faulty_adapter.py, equivalent_adapter.py, faults.json.
std::string selftest_dir();

struct Options {
  std::vector<std::string> faults;  ///< names or aliases; empty: none (see run_selftest)
  double seconds_per_fault = 60;
  bool no_false_alarms = false;  ///< also run the equivalent adapter
  double false_alarm_seconds = 300;
  std::string out;  ///< this run's folder (must not exist yet, or be empty)
  std::uint64_t seed = 1;
  bool all_roots = false;  ///< fuzz every root, not only the witness's
  bool strict = false;     ///< implementation-defined findings of the equivalent adapter count too
  std::string python = "python3";
  std::vector<std::string> reference;  ///< argv of the adapter behind the proxies
  std::chrono::milliseconds deadline{2000};
  std::size_t batch =
      32;  ///< small batches: a crash or hang fault's first finding is not held back by a long batch
  double size_goal = 2.0;  ///< minimized witness <= size_goal x hand-minimal
  /// The layers whose faults `all` selects and whose false-alarm checks run: structural, canonical,
  /// contextual.
  std::vector<std::string> layers = {"structural", "canonical", "contextual"};
  // Layer 3.
  std::string crosscheck_exe;       ///< the scripted server's and `crosscheck apply`'s program
  std::string schema_path;          ///< the run's --schema ("" for the installed one), for the stand-ins
  std::string client_config;        ///< "" for adapters/clients.json; the stand-ins wrap its "python" client
  std::size_t scenario_batch = 24;  ///< generated rows per stand-in batch (one client process each)
  bool selects_layer(const std::string& layer) const {
    return std::find(layers.begin(), layers.end(), layer) != layers.end();
  }
};

enum class Status { kPassed, kFailed, kSkipped };
const char* status_name(Status s);  ///< "PASS", "FAIL", "SKIP"

struct FaultReport {
  Fault fault;
  Status status = Status::kSkipped;
  std::string note;  ///< why it was skipped or failed, in a few words
  // The witness, decoded once by the reference and the faulty adapter.
  std::optional<bool> witness_detected;
  std::vector<std::string> witness_classes;
  // The campaign.
  std::optional<double> first_seconds;       ///< first finding that involves the faulty adapter
  std::vector<std::string> first_classes;    ///< that finding's classes involving it
  std::optional<double> expected_seconds;    ///< first finding in the expected class (and label)
  std::string expected_file;                 ///< its finding file
  std::optional<bool> expected_label;        ///< implementation-defined label of that divergence
  std::size_t found_bytes = 0;               ///< that finding's payload size
  std::optional<std::size_t> reduced_bytes;  ///< after reduction
  std::string reduce_note;                   ///< "not reduced: ..." when there is no number
  std::uint64_t generated = 0, sent = 0;
  double seconds = 0;  ///< wall time of this fault
  std::string folder;  ///< the campaign's run folder
  // Goals (nullopt: could not be judged).
  std::optional<bool> goal_time, goal_class, goal_size;
  // Layer 3 (rows are counted in generated and sent).
  std::size_t altered_rows = 0;  ///< rows whose answer the stand-in rewrote
  /// Rows the stand-in left to the real client and on which the real client differs from the
  /// reference: its own differences, not the fault's (never a detection).
  std::size_t client_own_rows = 0;
  std::string expected_row, expected_bucket;  ///< the detecting row and its difference's bucket
};

struct FalseAlarmReport {
  Status status = Status::kSkipped;
  std::string note;
  double seconds = 0;
  std::uint64_t generated = 0, sent = 0;
  std::size_t contract_findings = 0, implementation_defined_findings = 0;
  /// Findings whose only divergences of the adapter are layer-inconsistencies the reference shows on
  /// the same input (the protocol's own, docs/findings.md): not counted against the adapter.
  std::size_t shared_with_reference = 0;
  std::vector<std::string> contract_files;  ///< finding files with a contract divergence of the adapter
  std::vector<std::string> contract_details;
  std::string folder;
};

/// Layer 3's false-alarm check: the stand-in that only rewords error texts must give no difference on
/// the rows it rewrote.
struct ContextualFalseAlarmReport {
  Status status = Status::kSkipped;
  std::string note;
  double seconds = 0;
  std::uint64_t rows = 0;
  std::size_t altered_rows = 0, differences = 0;
  std::vector<std::string> details;  ///< "row: summary" of the differences (at most 20)
  std::string folder;
};

struct Report {
  std::vector<FaultReport> faults;
  std::optional<FalseAlarmReport> false_alarms;
  std::optional<ContextualFalseAlarmReport> contextual_false_alarms;
  bool interrupted = false;
  int exit_code() const;  ///< 0 every selected check passed, 1 a failure, 3 something skipped
};

/// The reducer hook: shrinks the payload of a finding file while it stays in `bucket` on `impls` (the
/// reference and the faulty adapter) and returns the reduced size, or an error saying why there is
/// no number.
/// `ir`: the schema the finding was fuzzed on (the fault's own schema where it has one).
using Reducer =
    std::function<Result<std::size_t, std::string>(const std::string& finding_file, const std::string& bucket,
                                                   exec::ImplementationSet& impls, const schema::Ir& ir)>;

/// Runs the selected faults (and the false-alarm check), printing a line per step to `log`.
/// Throws Fatal (exit 2) for bad options (an unknown fault, an output folder in use).
Report run_selftest(std::shared_ptr<const schema::Ir> ir, const std::vector<Fault>& table,
                    const Options& options, const Reducer& reducer, std::ostream& log);

/// The result table, one row per fault with its goals, and the false-alarm line.
void print_report(const Report& report, const Options& options, std::ostream& out);
/// The machine-readable report (crosscheck-selftest/1).
json::Value report_to_json(const Report& report, const Options& options);

}  // namespace crosscheck::selftest
