// decoder.hpp: the C++ structural decoder, an implementation of the AHP generated-codec contract
// straight from the schema IR.
//
// Contract (docs/contract.md): parsing is structural, not validation. Unknown members are kept at
// any depth; an unknown value of an open string enum warns (unknown_enum); an unknown tag of a
// discriminated union warns (unknown_variant); a known tag with an invalid body is an error
// (invalid_known_variant); unions select exactly (no_union_match, ambiguous_union for oneOf); absent
// differs from null; forbidden property sets are rejected even when the value is null; literals are
// checked; integers are integral and within +-(2^53-1). As in the pinned generator, the IR's integer
// bounds (boundedInteger) and typed additional members are checked too. Patterns, lengths, formats,
// other bounds, array cardinality and conditionals are not. Acceptance: no error-severity diagnostic.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/parse.hpp"
#include "json/value.hpp"
#include "schema/ir.hpp"

namespace crosscheck::decoder {

namespace detail {
class Checker;
class SchemaIndex;
}  // namespace detail

enum class Severity { kError, kWarning };
const char* severity_name(Severity severity);  ///< "error" / "warning"

/// One of the nine SDK codes: invalid_type, missing_required, literal_mismatch, unknown_enum,
/// unknown_variant, invalid_known_variant, no_union_match, ambiguous_union, invalid_json.
struct Diagnostic {
  std::string path;  ///< RFC 6901 JSON Pointer, "" for the root
  std::string code;
  Severity severity = Severity::kError;
  std::string message;
};

struct DecodeResult {
  bool accepted = false;
  std::vector<Diagnostic> diagnostics;
  /// The parsed value (accepted or rejected alike, unless the bytes were not JSON).
  std::optional<json::Value> raw;
  /// For accepted input: the re-encoded JSON text (compact, duplicates collapsed).
  std::optional<std::string> encoded;

  bool has_warning() const;
};

/// Receives, for schema coverage, each outcome-deciding node the check visited. Optional.
class CoverageSink {
 public:
  virtual ~CoverageSink() = default;
  /// `node` was exercised; `matched` says whether the value satisfied it.
  virtual void visit(const schema::Shape& node, bool matched) = 0;
};

struct DecodeOptions {
  json::ParseLimits limits;  ///< also bounds the nesting that check() follows
  /// Diagnostics kept per decode (the outcome is exact either way): bounds memory on payloads
  /// with millions of faults, and on schemas whose intersections repeat the same fault.
  std::size_t max_diagnostics = 10000;
};

/// The outcome of a check without its diagnostics: clean, warnings only, or rejected.
enum class CheckStatus { kClean, kWarning, kError };

class Decoder {
 public:
  /// `ir` must outlive the decoder and stay as it is: its refs, tags, member names and roots are
  /// indexed once, here.
  explicit Decoder(const schema::Ir& ir, DecodeOptions options = {});

  /// Parse `bytes` as JSON and check it against `root`. Never throws for any input bytes.
  DecodeResult decode(const schema::Root& root, std::string_view bytes,
                      CoverageSink* coverage = nullptr) const;
  /// Check an already parsed value (no invalid_json possible).
  DecodeResult check(const schema::Root& root, const json::Value& value,
                     CoverageSink* coverage = nullptr) const;

  /// The same check of `value` against any node of the IR (a subtree, not only a root), status only:
  /// how the generators verify a part they built. Nesting is bounded by the options' max_depth.
  CheckStatus check_subtree(const schema::Shape& shape, const json::Value& value) const;
  /// The shape a ref node names as the check resolves it; nullptr if the IR has no such type.
  const schema::Shape* ref_target(const schema::Shape& ref) const;
  /// Per variant of a discriminated union, the tag the check selects it by (nullptr: none).
  const std::vector<const std::string*>& variant_tags(const schema::Shape& union_node) const;

  const schema::Ir& ir() const { return ir_; }

 private:
  friend class SubtreeChecker;

  const schema::Ir& ir_;
  DecodeOptions options_;
  std::shared_ptr<const detail::SchemaIndex> index_;  // refs and tags resolved once, shared by copies
};

/// check_subtree many times over one value tree that does not change meanwhile (a walk): one memo of
/// (node, value address) for every call, so a subtree below several nested untagged unions is checked
/// once, not once per level. The decoder and the value tree must outlive it.
class SubtreeChecker {
 public:
  explicit SubtreeChecker(const Decoder& decoder);
  ~SubtreeChecker();
  SubtreeChecker(const SubtreeChecker&) = delete;
  SubtreeChecker& operator=(const SubtreeChecker&) = delete;

  CheckStatus check(const schema::Shape& shape, const json::Value& value);

 private:
  std::unique_ptr<detail::Checker> checker_;
};

}  // namespace crosscheck::decoder
