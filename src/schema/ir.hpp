// ir.hpp: the schema IR, the one model of the protocol that every part of crosscheck reads.
//
// It mirrors the AHP code generator's IR (ahp-codegen --emit-ir): named types whose shapes are
// any, never, null, boolean, integer, number, string, literal, enum, array, object, union,
// intersection and ref. Shapes are immutable once loaded and shared by pointer; each has a dense
// `id` (for schema coverage) and the `source` it was lowered from ("<doc path>#<JSON pointer>").
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"

namespace crosscheck::schema {

enum class ShapeKind : std::uint8_t {
  kAny,
  kNever,
  kNull,
  kBoolean,
  kInteger,
  kNumber,
  kString,
  kLiteral,
  kEnum,
  kArray,
  kObject,
  kUnion,
  kIntersection,
  kRef,
};
/// Lower-case IR spelling: "any", "literal", "intersection", ...
const char* shape_kind_name(ShapeKind kind);

enum class UnionMode : std::uint8_t { kAnyOf, kOneOf };

struct Shape;
using ShapePtr = std::shared_ptr<const Shape>;

struct Property {
  std::string wire_name;
  bool required = false;
  ShapePtr shape;
};

struct Shape {
  ShapeKind kind = ShapeKind::kAny;
  std::uint32_t id = 0;  ///< dense, unique within one Ir
  std::string source;    ///< "<doc path>#<pointer>" of the schema node this came from

  json::Value literal;                   ///< kLiteral
  std::vector<json::Value> enum_values;  ///< kEnum
  bool open_strings = false;             ///< kEnum: every value is a string, unknown strings warn
  ShapePtr items;                        ///< kArray
  std::vector<Property> properties;      ///< kObject, sorted by wire_name
  std::vector<std::vector<std::string>> forbidden_property_sets;  ///< kObject, each set sorted
  bool additional_allowed = true;  ///< kObject: false for additionalProperties:false (not enforced by parse)
  /// kObject: a typed additionalProperties schema (the generator's additional {kind:"typed", shape}):
  /// members not under `properties` are checked against it. nullptr for absent/true/false.
  ShapePtr additional_shape;
  /// kInteger: inclusive bounds (number spelling from the schema's minimum/maximum). Either one set
  /// makes it the generator's {kind:"boundedInteger", minimum?, maximum?}, enforced by the SDK parsers.
  std::optional<std::string> minimum, maximum;
  UnionMode mode = UnionMode::kOneOf;        ///< kUnion
  std::vector<ShapePtr> variants;            ///< kUnion, kIntersection
  std::optional<std::string> discriminator;  ///< kUnion (oneOf only)
  std::string ref;                           ///< kRef: the name of a NamedType
};

struct NamedType {
  std::string name;    ///< public (stable) name, e.g. "InterceptRequest"
  std::string source;  ///< "<doc path>#<pointer>", "#" alone for a document root
  ShapePtr shape;
};

struct Root {
  std::string snake_name;   ///< "intercept_request", as in the structural-acceptance matrix
  std::string public_name;  ///< "InterceptRequest"
  std::string document;     ///< "schema/draft/intercept-request.schema.json"
  std::string pointer;      ///< where in `document` ("" for the whole document, "/$defs/pong" for a part)
  /// sha256 over the sorted (path, sha256) pairs of every document the root's closure reaches: equal
  /// hashes mean two schema sources describe this root identically (no skew).
  std::string closure_hash;
  std::vector<std::string> closure_documents;  ///< sorted paths
};

struct Document {
  std::string path;    ///< "schema/draft/<file>"
  std::string sha256;  ///< of the document's bytes in the upstream format
  json::Value body;
};

struct IrStats {
  std::size_t types = 0, roots = 0, nodes = 0;
  std::map<std::string, std::size_t> nodes_by_kind;
};

class Ir {
 public:
  std::string schema_revision;      ///< "draft"
  std::string protocol_version;     ///< "draft"
  std::string origin;               ///< "manifest" or "bundle"
  std::string source_path;          ///< what was loaded
  std::string manifest_sha256;      ///< of manifest.json, or from the SDK lock next to a bundle ("" if none)
  std::optional<json::Value> lock;  ///< the SDK's ahp-codegen.lock.json next to a bundle, if any
  std::vector<Document> documents;
  std::map<std::string, NamedType, std::less<>> types;  ///< by public name
  std::vector<Root> roots;                              ///< sorted by snake_name
  std::size_t node_count = 0;                           ///< ids are 0 .. node_count-1

  /// By snake_case or public name; nullptr if unknown.
  const Root* find_root(std::string_view name) const;
  const NamedType* find_type(std::string_view name) const;
  /// The shape of a root (its NamedType's shape).
  ShapePtr root_shape(const Root& root) const;

  IrStats stats() const;
  /// The IR as JSON in ahp-codegen's --emit-ir layout:
  /// {schemaRevision, protocolVersion, roots:[{name, schema}], types:[{name, source, shape}]}.
  json::Value to_json() const;
};

/// snake_case of a public name: "InterceptRequest" -> "intercept_request".
std::string snake_case(std::string_view public_name);

}  // namespace crosscheck::schema
