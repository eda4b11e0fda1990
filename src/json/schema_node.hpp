// schema_node.hpp: a JSON Schema node compiled for evaluation (src/json/schema_*), also read by the
// canonical generator (src/gen/canonical_*), which builds instances from the same compiled nodes.
//
// Loading (schema_compile.cpp) checks every keyword once and resolves every $ref to the node it
// names, so evaluation (schema_check.cpp) never looks a keyword up by name nor a reference by path.
// Nodes point into the schema documents the SchemaSet owns; both live as long as the set.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "json/schema_regex.hpp"
#include "json/schema_validator.hpp"
#include "json/value.hpp"

namespace crosscheck::json {

enum class Format : std::uint8_t { kNone, kDateTime, kUri };

struct SchemaNode {
  std::uint32_t id = 0;  ///< index in its set (SchemaSet::node): the same schema source gives the same ids
  std::string location;  ///< "<document name>#<JSON Pointer>" where it was compiled from
  std::optional<bool> boolean;  ///< a true/false schema; every field below is then unused
  const SchemaNode* ref = nullptr;
  std::vector<std::string> types;  ///< "type", as spelled (one or several names)
  const Value* const_value = nullptr;
  const Value* enum_values = nullptr;
  std::optional<std::size_t> min_length, max_length, min_items, max_items, min_properties;
  std::optional<EcmaPattern> pattern;
  Format format = Format::kNone;
  const Value* minimum = nullptr;
  bool unique_items = false;
  const SchemaNode* items = nullptr;
  const SchemaNode* contains = nullptr;
  std::vector<std::pair<std::string, const SchemaNode*>> properties;  ///< in schema order
  std::unordered_map<std::string, const SchemaNode*> property_index;
  bool has_properties = false;
  const SchemaNode* additional = nullptr;
  const SchemaNode* property_names = nullptr;
  std::vector<std::string> required;
  std::vector<const SchemaNode*> all_of, any_of, one_of;
  const SchemaNode* not_schema = nullptr;
  const SchemaNode* if_schema = nullptr;
  const SchemaNode* then_schema = nullptr;
  const SchemaNode* else_schema = nullptr;
  const Value* description = nullptr;  ///< read by the messages of anyOf, oneOf and not
};

/// How one evaluation reports: every error (the canonical validator) or only the first (crosscheck's
/// own file formats, which print one message). Traits are gathered in both.
struct Evaluation {
  bool first_only = false;
  std::vector<SchemaError> errors;
  std::uint32_t traits = 0;  ///< bits of Trait
  NodeSink* sink = nullptr;  ///< told each node's outcome (probes of anyOf, not, if, ... included)
};

/// Evaluates `node` on `v` at instance location `path` (restored on return). True when valid.
bool evaluate(const SchemaNode& node, const Value& v, std::string& path, Evaluation& ev);

}  // namespace crosscheck::json
