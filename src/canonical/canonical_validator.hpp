// canonical_validator.hpp: the C++ reference for AHP's layer 2, canonical validation: a payload
// against the full JSON Schema 2020-12 of one protocol document, as the SDKs' validators check it
// before using a message (docs/canonical.md).
//
// The documents are the ones the decoder loads (schema::load_schema: a manifest folder, or an SDK's
// schemas.json bundle), checked by crosscheck's one JSON Schema engine (json/schema_validator.hpp);
// a keyword outside its subset refuses the whole set at load, naming the document and pointer.
// Documents are named as the SDKs' validators name them: the file name without ".schema.json"
// ("intercept-request", "registration", "capabilities"; "schema" for schema.json).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/schema_validator.hpp"
#include "schema/ir.hpp"
#include "util/result.hpp"

namespace crosscheck::canonical {

/// "schema/draft/intercept-request.schema.json" -> "intercept-request"; "schema/draft/schema.json" ->
/// "schema".
std::string document_name(std::string_view path);

/// The schema document a structural root is validated canonically as: the document name of the
/// root's schema file ("intercept_request" -> "intercept-request"), or "" when `ir` has no such root
/// or the root is a part of a document (a $defs entry), which no validator names. The one mapping
/// from roots to documents.
std::string root_document(const schema::Ir& ir, std::string_view root);

class CanonicalValidator {
 public:
  /// The documents of a loaded schema source. Error: the first refused keyword or reference.
  static Result<CanonicalValidator, json::SchemaLoadError> from_ir(const schema::Ir& ir);

  /// Known document names, sorted.
  const std::vector<std::string>& documents() const { return names_; }
  bool knows(std::string_view document) const;

  /// The verdict on `input` (raw bytes) against `document`: every failed keyword with its instance
  /// path, and the implementation-defined traits met. Bytes that are not strict JSON are invalid with
  /// one error of keyword "json" whose message gives the parser's line, column and byte. nullopt
  /// when no document has that name.
  /// `sink`, when given, is told the outcome of every schema node evaluated (schema coverage).
  std::optional<json::Validation> validate(std::string_view document, std::string_view input,
                                           json::NodeSink* sink = nullptr) const;
  /// The same on an already parsed instance.
  std::optional<json::Validation> validate_value(std::string_view document, const json::Value& instance,
                                                 json::NodeSink* sink = nullptr) const;
  /// The compiled root of `document` (json/schema_node.hpp), or nullptr when no document has that
  /// name: the canonical generator (gen/canonical_generator.hpp) reads its constraints from it.
  const json::SchemaNode* root(std::string_view document) const;
  /// The compiled set: every node by id (json::SchemaSet::node), for schema coverage.
  const json::SchemaSet& schemas() const { return set_; }

 private:
  CanonicalValidator(json::SchemaSet set, std::vector<std::string> names, std::vector<std::size_t> index)
      : set_(std::move(set)), names_(std::move(names)), index_(std::move(index)) {}
  json::SchemaSet set_;
  std::vector<std::string> names_;  // sorted
  std::vector<std::size_t> index_;  // names_[i] is document index_[i] of set_
};

/// {"outcome":"valid"|"invalid","errors":[{"path","keyword","message"}],"implementationDefined":[...]}
/// on one line, without a newline.
std::string render(const json::Validation& result);

}  // namespace crosscheck::canonical
