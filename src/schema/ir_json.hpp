// ir_json.hpp: the IR in ahp-codegen's --emit-ir JSON layout, read back (Ir::to_json writes it).
//
// Layout: {schemaRevision, protocolVersion, roots:[{name, schema}], types:[{name, source, shape}]}
// and shapes tagged by "kind": any | never | null | boolean | integer | number | string,
// boundedInteger {minimum?, maximum?}, literal {value}, enum {values, open_strings}, array {items},
// object {properties:[{wire_name, required, shape}], forbidden_property_sets,
// additional:{kind: allowed | forbidden} or {kind: typed, shape}}, union {mode: anyOf | oneOf,
// variants, discriminator?}, intersection {variants}, ref {name}. Reading it lets tests build small
// IRs by hand and lets tools compare an IR with the code generator's own output.
#pragma once

#include <string>

#include "json/value.hpp"
#include "schema/ir.hpp"
#include "util/result.hpp"

namespace crosscheck::schema {

/// Builds an Ir from the --emit-ir layout. Ids are dense, depth first, types in name order; each
/// shape's `source` is "ir:<type name>#<JSON pointer of the shape inside the type's shape>";
/// origin is "ir". Every ref and root must name a type. Error: "<JSON pointer>: expected <what>".
Result<Ir, std::string> ir_from_json(const json::Value& layout);

/// One shape in the --emit-ir layout (fields in the code generator's order).
json::Value shape_to_json(const Shape& shape);

}  // namespace crosscheck::schema
