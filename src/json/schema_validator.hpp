// schema_validator.hpp: crosscheck's one JSON Schema engine, for its own file formats (schemas/) and
// for the AHP schemas (the canonical reference validator, src/canonical/).
//
// Why hand-written: the files people edit (baselines, matrices) must be refused with a message that
// names the entry and the field, and the schema we ship must be the one the code enforces; the AHP
// schemas must be checked exactly where the SDKs' engines are known to differ (code-point lengths,
// exact decimals, RFC 3339 and RFC 3986 formats, ECMA-262 patterns; docs/canonical.md). Only the
// subset of JSON Schema 2020-12 that these schemas use is supported; a schema using any other keyword
// is refused when it is loaded, naming the document and the JSON Pointer, so nothing is silently
// ignored:
//   type, enum, const, properties, required, additionalProperties, propertyNames, minProperties,
//   items, minItems, maxItems, uniqueItems, contains, minLength, maxLength, pattern, format
//   (date-time, uri), minimum, allOf, anyOf, oneOf, not, if/then/else, $ref (with siblings, into
//   the same document or another of the set), $defs; annotations ($schema, $id at a document root,
//   $comment, title, description, examples, default, and any "x-" keyword) are skipped.
// When anyOf/oneOf/not fails and its schema has a "description", the message is "expected <it>".
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::json {

/// One failed keyword: where in the instance, which keyword, what was expected.
struct SchemaError {
  std::string path;     ///< JSON Pointer into the instance ("" = the whole document)
  std::string keyword;  ///< "type", "required", "pattern", ... ("false" for a false schema)
  std::string message;
  std::string member;  ///< `required`: the missing member's name
};

/// Inputs whose answer depends on a choice the standards leave open or that engines are known to make
/// differently; the validator still answers, and says which of these it met (docs/canonical.md).
enum class Trait : std::uint32_t {
  kPatternAstral = 1u << 0,        ///< "pattern-astral"
  kPatternWordBoundary = 1u << 1,  ///< "pattern-word-boundary"
  kStringLoneSurrogate = 1u << 2,  ///< "string-lone-surrogate"
  kDateTimeLeapSecond = 1u << 3,   ///< "date-time-leap-second"
  kDateTimeLowerCase = 1u << 4,    ///< "date-time-lower-case"
  kDateTimeYearZero = 1u << 5,     ///< "date-time-year-zero"
  kMinimumBigNumber = 1u << 6,     ///< "minimum-big-number"
  kIntegerBigNumber = 1u << 7,     ///< "integer-big-number"
  kEqualityBigNumber = 1u << 8,    ///< "equality-big-number"
  kDuplicateKeys = 1u << 9,        ///< "duplicate-keys"
};
/// The names of the bits set in `traits`, in the order of the enum.
std::vector<std::string> trait_names(std::uint32_t traits);

struct Validation {
  bool valid = true;
  std::vector<SchemaError> errors;                  ///< empty when valid
  std::vector<std::string> implementation_defined;  ///< trait names met on the way
};

/// A schema that cannot be loaded: the document, the JSON Pointer in it, and why.
struct SchemaLoadError {
  std::string document;
  std::string pointer;
  std::string message;
  /// "<document>#<pointer>: <message>"
  std::string text() const { return document + "#" + pointer + ": " + message; }
};

/// One schema document of a set. `name` is what load errors call it; `$id`, when the body has one,
/// is the base against which relative $refs between the documents resolve.
struct SchemaDocument {
  std::string name;
  Value body;
};

struct SchemaNode;

/// Told the outcome of every schema node an evaluation runs, inside anyOf/oneOf/not/if/contains/
/// propertyNames probes too (layer-2 schema coverage, src/coverage/canonical_coverage.hpp). `node` is
/// the node's id (SchemaSet::node). Called on the validating thread.
class NodeSink {
 public:
  virtual ~NodeSink() = default;
  virtual void evaluated(std::uint32_t node, bool passed) = 0;
};

/// A set of schema documents, loaded and checked once; validation is const and thread-safe.
class SchemaSet {
 public:
  static Result<SchemaSet, SchemaLoadError> load(std::vector<SchemaDocument> documents);
  SchemaSet(SchemaSet&&) noexcept;
  SchemaSet& operator=(SchemaSet&&) noexcept;
  ~SchemaSet();

  std::size_t size() const;
  const std::string& name(std::size_t document) const;
  /// Every error, and the traits met, of `instance` against document `document`'s root; each
  /// evaluated node's outcome goes to `sink` when there is one.
  Validation validate(std::size_t document, const Value& instance, NodeSink* sink = nullptr) const;
  /// The first error only (evaluation stops there), or nullopt when valid.
  std::optional<SchemaError> first_error(std::size_t document, const Value& instance) const;
  /// Document `document`'s compiled root (schema_node.hpp): what the canonical generator builds
  /// instances from, so that generation and validation read the schema through one compilation.
  const SchemaNode& root(std::size_t document) const;
  /// Every compiled node, by id (0 .. node_count() - 1), for schema coverage.
  std::size_t node_count() const;
  const SchemaNode& node(std::size_t id) const;

  struct Impl;  ///< the documents and their compiled nodes (schema_compile.cpp)

 private:
  explicit SchemaSet(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

struct SchemaViolation {
  std::string pointer;  ///< JSON Pointer into the instance ("" = the whole document)
  std::string message;  ///< what was expected there, e.g. "expected a string, got number"
};

/// One of crosscheck's own schemas: the first violation, with a missing required member named by its
/// own pointer (what describe_location turns into "field 'x'").
class SchemaValidator {
 public:
  /// Error: "#<schema pointer>: <the unsupported keyword or malformed value>".
  static Result<SchemaValidator, std::string> from_value(Value schema);
  /// Reads and checks a schema file; the error names the file.
  static Result<SchemaValidator, std::string> from_file(const std::string& path);

  /// The first violation in document order, or nullopt when `instance` is valid.
  std::optional<SchemaViolation> validate(const Value& instance) const;

 private:
  explicit SchemaValidator(std::shared_ptr<const SchemaSet> set) : set_(std::move(set)) {}
  std::shared_ptr<const SchemaSet> set_;
};

/// A schema crosscheck ships: `<source tree>/schemas/<name>` (the binary reads its own schemas from
/// the checkout it was built from, as it does adapters/default.json). Throws Fatal (exit 2) when the
/// file is missing or not a supported schema. Loaded once per process.
const SchemaValidator& shipped_schema(const std::string& name);

/// A readable place for a violation in a document of entries with ids:
/// "entries[3] (id \"py-int\"): field 'reason'"; "field 'format'"; "the document".
std::string describe_location(const Value& instance, const std::string& pointer);

}  // namespace crosscheck::json
