// schema_validator.hpp: checks a JSON value against one of crosscheck's own JSON Schemas (schemas/).
//
// Why hand-written: the files people edit (baselines, matrices) must be refused with a message that
// names the entry and the field, and the schema we ship must be the one the code enforces, so the
// code reads the shipped schema instead of repeating its rules. Only the subset of JSON Schema
// 2020-12 that our schemas use is supported; a schema using any other keyword is refused when it is
// loaded, so nothing is silently ignored:
//   type, enum, const, properties, required, additionalProperties, items, minItems, maxItems,
//   uniqueItems, minLength, maxLength, pattern (ECMAScript), minimum, anyOf, oneOf, allOf, not,
//   $ref ("#/$defs/..." only), $defs; annotations ($schema, $id, $comment, title, description,
//   examples, default) are skipped.
// When anyOf/oneOf/not fails and its schema has a "description", the message is "expected <it>".
#pragma once

#include <optional>
#include <string>

#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::json {

struct SchemaViolation {
  std::string pointer;  ///< JSON Pointer into the instance ("" = the whole document)
  std::string message;  ///< what was expected there, e.g. "expected a string, got number"
};

class SchemaValidator {
 public:
  /// Error: the schema pointer and the unsupported keyword or malformed value.
  static Result<SchemaValidator, std::string> from_value(Value schema);
  /// Reads and checks a schema file; the error names the file.
  static Result<SchemaValidator, std::string> from_file(const std::string& path);

  /// The first violation in document order, or nullopt when `instance` is valid.
  std::optional<SchemaViolation> validate(const Value& instance) const;

 private:
  explicit SchemaValidator(Value schema) : schema_(std::move(schema)) {}
  Value schema_;
};

/// A schema crosscheck ships: `<source tree>/schemas/<name>` (the binary reads its own schemas from
/// the checkout it was built from, as it does adapters/default.json). Throws Fatal (exit 2) when the
/// file is missing or not a supported schema. Loaded once per process.
const SchemaValidator& shipped_schema(const std::string& name);

/// A readable place for a violation in a document of entries with ids:
/// "entries[3] (id \"py-int\"): field 'reason'"; "field 'format'"; "the document".
std::string describe_location(const Value& instance, const std::string& pointer);

}  // namespace crosscheck::json
