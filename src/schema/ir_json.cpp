// ir_json.cpp: Ir::to_json and ir_from_json (the --emit-ir layout both ways).
#include "schema/ir_json.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

namespace crosscheck::schema {
namespace {

using json::Member;
using json::Value;

constexpr std::array<std::pair<ShapeKind, const char*>, 14> kKinds{{
    {ShapeKind::kAny, "any"},
    {ShapeKind::kNever, "never"},
    {ShapeKind::kNull, "null"},
    {ShapeKind::kBoolean, "boolean"},
    {ShapeKind::kInteger, "integer"},
    {ShapeKind::kNumber, "number"},
    {ShapeKind::kString, "string"},
    {ShapeKind::kLiteral, "literal"},
    {ShapeKind::kEnum, "enum"},
    {ShapeKind::kArray, "array"},
    {ShapeKind::kObject, "object"},
    {ShapeKind::kUnion, "union"},
    {ShapeKind::kIntersection, "intersection"},
    {ShapeKind::kRef, "ref"},
}};

const char* kind_text(ShapeKind kind) {
  for (const auto& [k, name] : kKinds) {
    if (k == kind) return name;
  }
  return "any";
}

Value str(std::string s) { return Value::string(std::move(s)); }

Value strings(const std::vector<std::string>& items) {
  std::vector<Value> out;
  for (const auto& item : items) out.push_back(str(item));
  return Value::array(std::move(out));
}

// --- reading --------------------------------------------------------------------------------

struct Error {
  std::string text;
};

/// Reads shapes, numbering them depth first and checking each field's type.
class Reader {
 public:
  std::uint32_t next_id = 0;

  ShapePtr shape(const Value& v, const std::string& type, const std::string& at, int depth) {
    if (depth > kMaxDepth) fail(at, "shapes nested at most " + std::to_string(kMaxDepth) + " deep");
    if (!v.is_object()) fail(at, "a shape object");
    auto s = std::make_shared<Shape>();
    s->id = next_id++;
    s->source = "ir:" + type + "#" + at.substr(at.find("/shape") + 6);
    std::string kind = text(v, "kind", at);
    if (kind == "boundedInteger") {  // the installed generator's integer with minimum and/or maximum
      s->kind = ShapeKind::kInteger;
      s->minimum = bound(v, "minimum", at);
      s->maximum = bound(v, "maximum", at);
      return s;
    }
    auto found = std::find_if(kKinds.begin(), kKinds.end(), [&](const auto& k) { return kind == k.second; });
    if (found == kKinds.end()) fail(at + "/kind", "a known shape kind, got \"" + kind + "\"");
    s->kind = found->first;
    switch (s->kind) {
      case ShapeKind::kLiteral:
        s->literal = field(v, "value", at);
        break;
      case ShapeKind::kEnum: {
        s->enum_values = array(v, "values", at).items();
        const Value& open = field(v, "open_strings", at);
        if (!open.is_bool()) fail(at + "/open_strings", "a boolean");
        s->open_strings = open.as_bool();
        break;
      }
      case ShapeKind::kArray:
        s->items = shape(field(v, "items", at), type, at + "/items", depth + 1);
        break;
      case ShapeKind::kObject:
        object(v, *s, type, at, depth);
        break;
      case ShapeKind::kUnion: {
        std::string mode = text(v, "mode", at);
        if (mode != "anyOf" && mode != "oneOf") fail(at + "/mode", "\"anyOf\" or \"oneOf\"");
        s->mode = mode == "anyOf" ? UnionMode::kAnyOf : UnionMode::kOneOf;
        if (v.find("discriminator")) s->discriminator = text(v, "discriminator", at);
        variants(v, *s, type, at, depth);
        break;
      }
      case ShapeKind::kIntersection:
        variants(v, *s, type, at, depth);
        break;
      case ShapeKind::kRef:
        s->ref = text(v, "name", at);
        refs.emplace_back(s->ref, at + "/name");
        break;
      default:
        break;
    }
    return s;
  }

  [[noreturn]] static void fail(const std::string& at, const std::string& what) {
    throw Error{at + ": expected " + what};
  }

  static const Value& field(const Value& v, const char* name, const std::string& at) {
    const Value* f = v.find(name);
    if (!f) fail(at, std::string("a member \"") + name + "\"");
    return *f;
  }
  static std::string text(const Value& v, const char* name, const std::string& at) {
    const Value& f = field(v, name, at);
    if (!f.is_string()) fail(at + "/" + name, "a string");
    return f.string_value();
  }
  static const Value& array(const Value& v, const char* name, const std::string& at) {
    const Value& f = field(v, name, at);
    if (!f.is_array()) fail(at + "/" + name, "an array");
    return f;
  }

  std::vector<std::pair<std::string, std::string>> refs;  // (name, where) to check once all types are read

 private:
  static constexpr int kMaxDepth = 200;

  void variants(const Value& v, Shape& s, const std::string& type, const std::string& at, int depth) {
    const Value& list = array(v, "variants", at);
    for (std::size_t i = 0; i < list.items().size(); ++i) {
      s.variants.push_back(shape(list.items()[i], type, at + "/variants/" + std::to_string(i), depth + 1));
    }
  }

  void object(const Value& v, Shape& s, const std::string& type, const std::string& at, int depth) {
    const Value& props = array(v, "properties", at);
    for (std::size_t i = 0; i < props.items().size(); ++i) {
      const Value& p = props.items()[i];
      std::string pat = at + "/properties/" + std::to_string(i);
      if (!p.is_object()) fail(pat, "a property object");
      Property property;
      property.wire_name = text(p, "wire_name", pat);
      const Value& required = field(p, "required", pat);
      if (!required.is_bool()) fail(pat + "/required", "a boolean");
      property.required = required.as_bool();
      property.shape = shape(field(p, "shape", pat), type, pat + "/shape", depth + 1);
      s.properties.push_back(std::move(property));
    }
    const Value& sets = array(v, "forbidden_property_sets", at);
    for (std::size_t i = 0; i < sets.items().size(); ++i) {
      const Value& set = sets.items()[i];
      std::string sat = at + "/forbidden_property_sets/" + std::to_string(i);
      if (!set.is_array()) fail(sat, "an array of member names");
      std::vector<std::string> names;
      for (const Value& name : set.items()) {
        if (!name.is_string()) fail(sat, "an array of member names");
        names.push_back(name.string_value());
      }
      s.forbidden_property_sets.push_back(std::move(names));
    }
    const Value& additional = field(v, "additional", at);
    if (!additional.is_object()) fail(at + "/additional", "an object");
    std::string kind = text(additional, "kind", at + "/additional");
    if (kind == "typed") {
      s.additional_shape =
          shape(field(additional, "shape", at + "/additional"), type, at + "/additional/shape", depth + 1);
    } else if (kind != "allowed" && kind != "forbidden") {
      fail(at + "/additional/kind", "\"allowed\", \"forbidden\" or \"typed\"");
    }
    s.additional_allowed = kind != "forbidden";
  }

  static std::optional<std::string> bound(const Value& v, const char* name, const std::string& at) {
    const Value* f = v.find(name);
    if (!f) return std::nullopt;
    if (!f->is_number()) fail(at + "/" + name, "a number");
    return f->number_text();
  }
};

}  // namespace

json::Value shape_to_json(const Shape& s) {
  Value v = Value::object();
  if (s.kind == ShapeKind::kInteger && (s.minimum || s.maximum)) {
    v.add("kind", str("boundedInteger"));
    if (s.minimum) v.add("minimum", Value::number(*s.minimum));
    if (s.maximum) v.add("maximum", Value::number(*s.maximum));
    return v;
  }
  v.add("kind", str(kind_text(s.kind)));
  switch (s.kind) {
    case ShapeKind::kLiteral:
      v.add("value", s.literal);
      break;
    case ShapeKind::kEnum:
      v.add("values", Value::array(s.enum_values));
      v.add("open_strings", Value::boolean(s.open_strings));
      break;
    case ShapeKind::kArray:
      v.add("items", s.items ? shape_to_json(*s.items) : Value::object({{"kind", str("any")}}));
      break;
    case ShapeKind::kObject: {
      std::vector<Value> props;
      for (const auto& p : s.properties) {
        Value pv = Value::object();
        pv.add("wire_name", str(p.wire_name));
        pv.add("required", Value::boolean(p.required));
        pv.add("shape", shape_to_json(*p.shape));
        props.push_back(std::move(pv));
      }
      v.add("properties", Value::array(std::move(props)));
      std::vector<Value> sets;
      for (const auto& set : s.forbidden_property_sets) sets.push_back(strings(set));
      v.add("forbidden_property_sets", Value::array(std::move(sets)));
      if (s.additional_shape) {
        v.add("additional",
              Value::object({{"kind", str("typed")}, {"shape", shape_to_json(*s.additional_shape)}}));
      } else {
        v.add("additional", Value::object({{"kind", str(s.additional_allowed ? "allowed" : "forbidden")}}));
      }
      break;
    }
    case ShapeKind::kUnion:
    case ShapeKind::kIntersection: {
      if (s.kind == ShapeKind::kUnion) v.add("mode", str(s.mode == UnionMode::kAnyOf ? "anyOf" : "oneOf"));
      std::vector<Value> variants;
      for (const auto& variant : s.variants) variants.push_back(shape_to_json(*variant));
      v.add("variants", Value::array(std::move(variants)));
      if (s.kind == ShapeKind::kUnion && s.discriminator) v.add("discriminator", str(*s.discriminator));
      break;
    }
    case ShapeKind::kRef:
      v.add("name", str(s.ref));
      break;
    default:
      break;
  }
  return v;
}

json::Value Ir::to_json() const {
  Value out = Value::object();
  out.add("schemaRevision", str(schema_revision));
  out.add("protocolVersion", str(protocol_version));
  std::vector<const Root*> sorted;
  for (const auto& root : roots) sorted.push_back(&root);
  std::sort(sorted.begin(), sorted.end(),
            [](const Root* a, const Root* b) { return a->public_name < b->public_name; });
  std::vector<Value> root_values;
  for (const Root* root : sorted) {
    root_values.push_back(Value::object({{"name", str(root->public_name)}, {"schema", str(root->document)}}));
  }
  out.add("roots", Value::array(std::move(root_values)));
  std::vector<Value> type_values;
  for (const auto& [name, type] : types) {  // std::map: sorted by name, as the generator sorts them
    Value t = Value::object();
    t.add("name", str(name));
    t.add("source", str(type.source));
    t.add("shape", type.shape ? shape_to_json(*type.shape) : Value::object({{"kind", str("any")}}));
    type_values.push_back(std::move(t));
  }
  out.add("types", Value::array(std::move(type_values)));
  return out;
}

Result<Ir, std::string> ir_from_json(const json::Value& layout) {
  try {
    if (!layout.is_object()) Reader::fail("", "an IR object");
    Ir ir;
    ir.origin = "ir";
    ir.schema_revision = Reader::text(layout, "schemaRevision", "");
    ir.protocol_version = Reader::text(layout, "protocolVersion", "");
    Reader reader;
    // Types first, in name order, so that ids do not depend on the input's order.
    const Value& types = Reader::array(layout, "types", "");
    std::vector<std::pair<std::string, std::size_t>> order;
    for (std::size_t i = 0; i < types.items().size(); ++i) {
      std::string at = "/types/" + std::to_string(i);
      if (!types.items()[i].is_object()) Reader::fail(at, "a type object");
      order.emplace_back(Reader::text(types.items()[i], "name", at), i);
    }
    std::sort(order.begin(), order.end());
    for (const auto& [name, i] : order) {
      const Value& t = types.items()[i];
      std::string at = "/types/" + std::to_string(i);
      if (ir.types.count(name)) Reader::fail(at + "/name", "a unique type name, \"" + name + "\" repeats");
      NamedType type;
      type.name = name;
      type.source = Reader::text(t, "source", at);
      type.shape = reader.shape(Reader::field(t, "shape", at), name, at + "/shape", 0);
      ir.types.emplace(name, std::move(type));
    }
    for (const auto& [name, at] : reader.refs) {
      if (!ir.types.count(name)) Reader::fail(at, "the name of a type, got \"" + name + "\"");
    }
    const Value& roots = Reader::array(layout, "roots", "");
    for (std::size_t i = 0; i < roots.items().size(); ++i) {
      std::string at = "/roots/" + std::to_string(i);
      if (!roots.items()[i].is_object()) Reader::fail(at, "a root object");
      Root root;
      root.public_name = Reader::text(roots.items()[i], "name", at);
      root.document = Reader::text(roots.items()[i], "schema", at);
      if (!ir.types.count(root.public_name)) Reader::fail(at + "/name", "the name of a type");
      root.snake_name = snake_case(root.public_name);
      ir.roots.push_back(std::move(root));
    }
    std::sort(ir.roots.begin(), ir.roots.end(),
              [](const Root& a, const Root& b) { return a.snake_name < b.snake_name; });
    ir.node_count = reader.next_id;
    return ir;
  } catch (const Error& e) {
    return e.text;
  }
}

}  // namespace crosscheck::schema
