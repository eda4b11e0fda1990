// repro.hpp: a finding turned into a standalone reproducer in an SDK's own language and test idiom
// (crosscheck repro, docs/repro.md).
//
// A reproducer calls the public entrypoint the SDK's adapter calls (adapters/python/adapter.py,
// adapters/rust/src/main.rs) on the finding's exact bytes, embedded as base64 (never as code: a
// witness is hostile input), and asserts the answer of the contract's reference, the C++ decoder and
// canonical validator: it fails while the SDK deviates and passes once the SDK answers as the
// reference. What is asserted follows the divergence class (plan_reproducer), so the reproducer
// fails the way the finding says. Layer 3 (a scenario row, clients mode) is written for Python: its
// own interop client against its own interop server on the one-row scenario file written beside it,
// asserting the reference host's answer.
//
// Everything here is a pure function of its arguments: the same finding and SDK give the same bytes.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "run/finding_file.hpp"
#include "util/result.hpp"

namespace crosscheck::repro {

/// The SDK a reproducer is written for, as its adapter's hello named it.
struct SdkInfo {
  std::string name;      ///< the adapter's name ("python", "rust")
  std::string language;  ///< "python", "rust" (hello's implementation.language)
  std::string path;      ///< "text" (the generated parse); the direct paths have no writer yet
  std::string version;   ///< the SDK's package version ("0.10.1")
  /// The SDK's codegen lock: the schema manifest's sha256, where it came from, the protocol version.
  std::string manifest_sha256, source_repository, source_commit, protocol_version;
  /// Rust: the adapter's Cargo.lock, written beside the project so that it resolves the same crates
  /// (and a build in the adapter's target folder reuses them); empty when not found.
  std::string cargo_lock;
  /// False when no checkout of the SDK was at hand (go, typescript): the header says the reproducer was
  /// written from the adapter's entrypoints alone and never run.
  bool verified = true;
};

/// What a reproducer asserts about the SDK's answer: the reference's answer to the same question.
struct Check {
  enum class Kind {
    kOutcome,    ///< structural: the generated parse accepts (or rejects) the text
    kParsed,     ///< structural: the parse reads the text as JSON (no invalid_json), or refuses it as JSON
    kWarnings,   ///< structural: the multiset of warnings (code, path)
    kErrors,     ///< structural: the set of errors (code, path)
    kRoundTrip,  ///< structural: accepted, and the re-encoding is semantically the input
    kEncodesAs,  ///< structural: accepted, and the re-encoding is semantically the reference's
    kVerdict,    ///< canonical: the SDK's validator says valid (or invalid)
    kContextualAnswer,  ///< layer 3: the interop client derives a result (or rejects the response)
    kContextualKeys,    ///< layer 3: the derived result's `keys` are the reference host's (`encoded`)
  };
  Kind kind = Kind::kOutcome;
  bool expect = true;                   ///< kOutcome: accepted; kParsed: parsed; kVerdict: valid
  std::vector<core::Diag> diagnostics;  ///< kWarnings, kErrors: the reference's (code, path), sorted
  std::string encoded;            ///< kEncodesAs: the reference's re-encoding; kContextualKeys: its result
  std::vector<std::string> keys;  ///< kContextualKeys: the result's keys that differed
  // For the header and the assertion's message:
  std::string layer, cls, bucket, signature;
  bool implementation_defined = false;
  std::string reference_answer;  ///< "rejected (invalid_type at /size)"
  std::string sdk_answer;        ///< the deviating implementation's recorded answer
};

struct Plan {
  std::string finding_path;  ///< as given on the command line
  std::string finding_id;    ///< the 40-hex identity of (root, input)
  std::string root, document, input, replay;
  std::string scenario_id;    ///< layer 3: the row's id (the input is the row's exact bytes); "" otherwise
  std::string reference;      ///< the reference the answers come from ("cpp")
  std::string deviating;      ///< the implementation whose deviation it reproduces
  std::string blame_basis;    ///< "reference", "majority", "own-failure" (verdict::basis_name)
  std::vector<Check> checks;  ///< at least one
  /// The rules of the rule catalogue (contract/rule-catalogue.json) the finding breaks: (id, paraphrase),
  /// filled in by the caller, which reads the catalogue; empty when none is tied to it.
  std::vector<std::pair<std::string, std::string>> rules;
};

/// The checks that reproduce `deviating`'s divergences of the finding, against the reference's answers.
/// Errors (a refusal, exit 2): `deviating` is not blamed in any divergence (verdict/blame), the finding
/// is a layer-3 request-admission row (--servers), the reference's answer is not in the finding, or
/// nothing of the deviation can be asked of the SDK (a protocol break, a text that is not UTF-8 for an
/// SDK that takes text, a layer-3 row's expectation alone).
Result<Plan, std::string> plan_reproducer(const run::Finding& finding, const std::string& finding_path,
                                          const std::string& deviating, const std::string& sdk_language);

/// The finding's structural result / canonical verdict of one implementation, or nullptr.
const core::ImplResult* result_of(const run::Finding& finding, const std::string& implementation);
const core::ValidateResult* validation_of(const run::Finding& finding, const std::string& implementation);
/// Rejected with an invalid_json error: the text was refused as JSON, not judged against the schema.
bool rejected_as_json(const core::ImplResult& result);

/// One file of a reproducer, relative to its output folder.
struct OutputFile {
  std::string path;
  std::string content;
};

/// The reproducer's files for `sdk` (python: one test_*.py; rust: Cargo.toml, Cargo.lock, src/lib.rs;
/// go: go.mod, repro_test.go; typescript: repro.test.mjs, layer 1 only). Error: a language or path with
/// no writer, a layer-2 check for go or typescript.
Result<std::vector<OutputFile>, std::string> write_reproducer(const Plan& plan, const SdkInfo& sdk);

/// Writes the files into `dir`. An existing `dir` without `force` is an error and nothing is written;
/// with `force` only the reproducer's own files are replaced.
Result<std::vector<std::string>, std::string> write_files(const std::string& dir,
                                                          const std::vector<OutputFile>& files, bool force);

// Exposed for the tests: how hostile text reaches generated source.
/// Text for a line comment: printable ASCII as is, a backslash doubled, any other byte as \xNN;
/// longer than `max_bytes` input bytes is cut with "... (N bytes)".
std::string comment_text(const std::string& bytes, std::size_t max_bytes = 240);
/// A Python str literal in double quotes, ASCII only (\uXXXX for other code points; a byte that is not
/// UTF-8 as the surrogate escape \udcXX).
std::string python_string(const std::string& bytes);
/// A Rust &str literal in double quotes, ASCII only (\u{X}; a byte that is not UTF-8 as U+FFFD).
std::string rust_string(const std::string& bytes);
/// A Go string literal, ASCII only (\uXXXX, \UXXXXXXXX; any other byte as \xNN, kept as it is).
std::string go_string(const std::string& bytes);
/// A JavaScript string literal, ASCII only (\uXXXX, \u{X}; a byte that is not UTF-8 as U+FFFD).
std::string js_string(const std::string& bytes);

}  // namespace crosscheck::repro
