// schema_lower_test.cpp: every lowering, naming and reference rule of build_ir on small in-memory
// documents. Shapes are compared through a compact rendering:
//   {a!:string, b:any}  object (! = required), " closed" = additionalProperties:false,
//                       " +<shape>" = typed additionalProperties, " forbid[a,b][c]" = forbidden sets
//   oneOf(type)[x | y]  union with its discriminator; anyOf[...]; all[x & y] intersection
//   @Name ref, "x" literal, enum["a"] (open_strings adds "open"), integer[0..], array<...>
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "json/parse.hpp"
#include "json/write.hpp"
#include "schema/lower.hpp"
#include "schema/sha256.hpp"

using namespace crosscheck;
using namespace crosscheck::schema;

namespace {

std::string show(const Shape& s) {
  switch (s.kind) {
    case ShapeKind::kInteger:
      if (s.minimum || s.maximum)
        return "integer[" + s.minimum.value_or("") + ".." + s.maximum.value_or("") + "]";
      return "integer";
    case ShapeKind::kLiteral:
      return json::write(s.literal);
    case ShapeKind::kEnum: {
      std::string out = "enum[";
      for (std::size_t i = 0; i < s.enum_values.size(); ++i)
        out += (i ? "," : "") + json::write(s.enum_values[i]);
      return out + "]" + (s.open_strings ? "open" : "");
    }
    case ShapeKind::kArray:
      return "array<" + show(*s.items) + ">";
    case ShapeKind::kObject: {
      std::string out = "{";
      for (std::size_t i = 0; i < s.properties.size(); ++i) {
        const Property& p = s.properties[i];
        out += (i ? ", " : "") + p.wire_name + (p.required ? "!" : "") + ":" + show(*p.shape);
      }
      out += "}";
      if (!s.additional_allowed) out += " closed";
      if (s.additional_shape) out += " +" + show(*s.additional_shape);
      if (!s.forbidden_property_sets.empty()) {
        out += " forbid";
        for (const auto& set : s.forbidden_property_sets) {
          out += "[";
          for (std::size_t i = 0; i < set.size(); ++i) out += (i ? "," : "") + set[i];
          out += "]";
        }
      }
      return out;
    }
    case ShapeKind::kUnion:
    case ShapeKind::kIntersection: {
      std::string out = s.kind == ShapeKind::kIntersection ? "all["
                        : s.mode == UnionMode::kOneOf      ? "oneOf"
                                                           : "anyOf";
      if (s.kind == ShapeKind::kUnion) out += (s.discriminator ? "(" + *s.discriminator + ")" : "") + "[";
      for (std::size_t i = 0; i < s.variants.size(); ++i) {
        out += (i ? (s.kind == ShapeKind::kIntersection ? " & " : " | ") : "") + show(*s.variants[i]);
      }
      return out + "]";
    }
    case ShapeKind::kRef:
      return "@" + s.ref;
    default:
      return shape_kind_name(s.kind);
  }
}

using Files = std::vector<std::pair<std::string, std::string>>;

Result<Ir, SchemaError> build(const Files& files, const StableNames* names = nullptr, bool strict = true) {
  std::vector<Document> docs;
  for (const auto& [file, text] : files) {
    auto parsed = json::parse(text);
    EXPECT_TRUE(parsed.ok()) << file << ": " << parsed.error().message();
    Document doc;
    doc.path = "schema/draft/" + file;
    doc.sha256 = sha256_hex(text);
    doc.body = parsed.ok() ? parsed.value() : json::Value();
    docs.push_back(std::move(doc));
  }
  Naming naming;
  naming.names = names;
  naming.names_document = "test/manifest.json";
  naming.strict = strict;
  return build_ir(std::move(docs), naming);
}

Ir ok(const Files& files, const StableNames* names = nullptr) {
  auto result = build(files, names);
  EXPECT_TRUE(result.ok()) << result.error().message();
  return result.ok() ? std::move(result).value() : Ir();
}

std::string error(const Files& files, const StableNames* names = nullptr) {
  auto result = build(files, names);
  EXPECT_FALSE(result.ok());
  return result.ok() ? "(loaded)" : result.error().message();
}

/// The lowered root of a one-document schema a.schema.json.
std::string lowered(const std::string& text) {
  Ir ir = ok({{"a.schema.json", text}});
  const NamedType* type = ir.find_type("A");
  return type ? show(*type->shape) : "(no type A)";
}

std::string type_of(const Ir& ir, const std::string& name) {
  const NamedType* type = ir.find_type(name);
  return type ? show(*type->shape) : "(no type " + name + ")";
}

TEST(SchemaLower, BooleanSchemas) {
  EXPECT_EQ(lowered(R"({"type":"object","properties":{"a":true,"b":false}})"), "{a:any, b:never}");
}

TEST(SchemaLower, ScalarTypes) {
  EXPECT_EQ(lowered(R"({"type":"object","properties":{"b":{"type":"boolean"},"n":{"type":"null"},
      "x":{"type":"number","minimum":0},"i":{"type":"integer"},"s":{"type":"string","minLength":1}}})"),
            "{b:boolean, i:integer, n:null, s:string, x:number}");
}

TEST(SchemaLower, IntegerBoundsAreKept) {
  EXPECT_EQ(lowered(R"({"type":"object","properties":{"a":{"type":"integer","minimum":0},
      "b":{"type":"integer","minimum":1,"maximum":1E3},"c":{"type":"integer","exclusiveMinimum":0}}})"),
            "{a:integer[0..], b:integer[1..1E3], c:integer}");
}

TEST(SchemaLower, TypeArrayIsAnyOfOfOneCopyPerType) {
  EXPECT_EQ(lowered(R"({"type":["string","number"]})"), "anyOf[string | number]");
  EXPECT_EQ(lowered(R"({"type":["integer","null"],"minimum":2})"), "anyOf[integer[2..] | null]");
}

TEST(SchemaLower, ConstAndEnum) {
  EXPECT_EQ(lowered(R"({"type":"object","properties":{"a":{"const":"x"},"b":{"type":"boolean","const":true},
      "c":{"const":{"k":[1,null]}},"d":{"enum":["x","y"]},"e":{"enum":["x",1,null]},"f":{"type":"string","enum":["z"]}}})"),
            R"({a:"x", b:true, c:{"k":[1,null]}, d:enum["x","y"]open, e:enum["x",1,null], f:enum["z"]open})");
}

TEST(SchemaLower, ConstWithAStructuralSiblingIsAnError) {
  EXPECT_EQ(
      error({{"a.schema.json", R"({"const":"x","properties":{"a":true}})"}}),
      "schema/draft/a.schema.json#/properties: expected only \"type\" beside \"const\", not \"properties\"");
  EXPECT_EQ(error({{"a.schema.json", R"({"enum":["x"],"oneOf":[true]})"}}),
            "schema/draft/a.schema.json#/oneOf: expected only \"type\" beside \"enum\", not \"oneOf\"");
}

TEST(SchemaLower, ObjectsSortPropertiesAndAddRequiredNames) {
  // Byte order of wire names; required names not under properties are required Any members.
  EXPECT_EQ(lowered(R"({"type":"object","required":["zeta","b","missing"],"properties":{
      "zeta":{"type":"string"},"b":{"type":"string"},"B":{"type":"string"},"_x":true}})"),
            "{B:string, _x:any, b!:string, missing!:any, zeta!:string}");
  // Object keywords without "type" still make an object.
  EXPECT_EQ(lowered(R"({"type":"object","properties":{"p":{"required":["a"]}}})"), "{p:{a!:any}}");
}

TEST(SchemaLower, AdditionalProperties) {
  EXPECT_EQ(lowered(R"({"type":"object","properties":{
      "closed":{"type":"object","additionalProperties":false},
      "open":{"type":"object","additionalProperties":true},
      "absent":{"type":"object"},
      "typed":{"type":"object","additionalProperties":{"type":"integer","minimum":0}},
      "empty":{"type":"object","additionalProperties":{}}}})"),
            "{absent:{}, closed:{} closed, empty:{} +any, open:{}, typed:{} +integer[0..]}");
}

TEST(SchemaLower, ArraysAndItems) {
  EXPECT_EQ(
      lowered(R"({"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"minItems":1,
      "uniqueItems":true,"contains":{"const":"x"}},"b":{"type":"array"},"c":{"items":{"type":"string"}}}})"),
      "{a:array<string>, b:array<any>, c:any}");
}

TEST(SchemaLower, ValidationOnlyNodesAreAny) {
  EXPECT_EQ(lowered(R"({"type":"object","properties":{"a":{"minLength":1},"b":{"format":"uri","pattern":"^x"},
      "c":{},"d":{"if":{"required":["x"]},"then":{"required":["y"]}},"e":{"propertyNames":{"pattern":"^a"}},
      "f":{"not":{"anyOf":[{"required":["after"]}]}},"g":{"description":"only words"}}})"),
            "{a:any, b:any, c:any, d:any, e:any, f:any, g:any}");
}

TEST(SchemaLower, NotRequiredBecomesForbiddenSets) {
  EXPECT_EQ(lowered(R"({"type":"object","properties":{"a":true},"not":{"required":["b","a"]}})"),
            "{a:any} forbid[a,b]");
  EXPECT_EQ(
      lowered(
          R"({"type":"object","not":{"anyOf":[{"required":["y"]},{"required":["x"]},{"required":["y"]}]}})"),
      "{} forbid[x][y]");
  // Next to "required" only (a oneOf branch of the registration's bearer authentication).
  EXPECT_EQ(
      lowered(
          R"({"oneOf":[{"required":["e"],"not":{"required":["r"]}},{"required":["r"],"not":{"required":["e"]}}]})"),
      "oneOf[{e!:any} forbid[r] | {r!:any} forbid[e]]");
}

TEST(SchemaLower, NotOfValidationKeywordsIsIgnored) {
  EXPECT_EQ(lowered(R"({"type":"string","minLength":1,"not":{"pattern":"^text/"}})"), "string");
  // A not-required on a non-object node constrains nothing structurally.
  EXPECT_EQ(lowered(R"({"type":"string","not":{"required":["a"]}})"), "string");
}

TEST(SchemaLower, OtherNotIsAnError) {
  EXPECT_EQ(
      error({{"a.schema.json",
              R"({"type":"object","properties":{"a":{"type":"object","not":{"type":"string"}}}})"}}),
      "schema/draft/a.schema.json#/properties/a/not: expected a \"not\" of the form {required:[...]} or "
      "{anyOf:[{required:[...]}, ...]}, or of validation keywords only");
}

TEST(SchemaLower, AllOfOfConditionalsIsDroppedKeepingForbiddenSets) {
  EXPECT_EQ(lowered(R"({"type":"object","properties":{"a":true},"allOf":[
      {"if":{"required":["a"]},"then":{"required":["b"]}},{"not":{"required":["size"]}},
      {"not":{"anyOf":[{"required":["sha256"]},{"required":["x"]}]}},{"not":{"type":"string"}}]})"),
            "{a:any} forbid[sha256][size][x]");
}

TEST(SchemaLower, MixedAllOfKeepsEveryBranch) {
  // As the generator does for execution-event context.compact.before: the not-branch is lowered on
  // its own (validation-only: Any) and does not become a forbidden set of the base object.
  EXPECT_EQ(
      lowered(R"({"type":"object","required":["id"],"allOf":[{"not":{"anyOf":[{"required":["summary"]}]}},
      {"properties":{"tokenCounts":{"not":{"anyOf":[{"required":["after"]}]}}}}]})"),
      "all[{id!:any} & any & {tokenCounts:any}]");
}

TEST(SchemaLower, CompositionBesideAnObjectIsAnIntersection) {
  EXPECT_EQ(lowered(R"({"type":"object","properties":{"e":{"type":"string"},"r":{"type":"string"}},
      "oneOf":[{"required":["e"]},{"required":["r"]}]})"),
            "all[{e:string, r:string} & oneOf[{e!:any} | {r!:any}]]");
  EXPECT_EQ(
      lowered(
          R"({"type":"object","required":["a"],"anyOf":[{"properties":{"a":{"const":true}},"required":["a"]},true],
      "allOf":[{"properties":{"b":true}},{"required":["c"]}]})"),
      "all[{a!:any} & anyOf[{a!:true} | any] & {b:any} & {c!:any}]");
  // A bare allOf is an intersection; a single composition is itself.
  EXPECT_EQ(lowered(R"({"allOf":[{"type":"string"},{"minLength":2}]})"), "all[string & any]");
  EXPECT_EQ(lowered(R"({"anyOf":[{"type":"string"},{"type":"null"}]})"), "anyOf[string | null]");
}

TEST(SchemaLower, OneOfDiscriminatorIsInferredThroughRefsAndAllOf) {
  Ir ir = ok({{"u.schema.json", R"({"oneOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/b"},
      {"allOf":[{"$ref":"#/$defs/base"},{"properties":{"type":{"const":"c"}}}]}],
      "$defs":{"a":{"type":"object","required":["type","k"],"properties":{"type":{"const":"a"},"k":{"const":"same"}}},
        "b":{"type":"object","required":["type","k"],"properties":{"type":{"const":"b"},"k":{"const":"same"}}},
        "base":{"type":"object","required":["type","k"],"properties":{"type":{"type":"string"},"k":{"const":"other"}}}}})"}});
  // "k" repeats a value, "type" is a string literal in every branch (the allOf branch's literal
  // comes after a plain string: the first literal found counts).
  EXPECT_EQ(type_of(ir, "U"), "oneOf(type)[@UA | @UB | all[@UBase & {type:\"c\"}]]");
}

TEST(SchemaLower, NoDiscriminatorWhenATagRepeatsOrForAnyOf) {
  EXPECT_EQ(lowered(R"({"oneOf":[{"type":"object","required":["t"],"properties":{"t":{"const":"x"}}},
      {"type":"object","required":["t","s"],"properties":{"t":{"const":"x"},"s":{"const":"y"}}}]})"),
            "oneOf[{t!:\"x\"} | {s!:\"y\", t!:\"x\"}]");
  EXPECT_EQ(lowered(R"({"anyOf":[{"type":"object","required":["t"],"properties":{"t":{"const":"x"}}},
      {"type":"object","required":["t"],"properties":{"t":{"const":"y"}}}]})"),
            "anyOf[{t!:\"x\"} | {t!:\"y\"}]");
  // The SDKs' tag lookup reads the literal whether or not the property is required: so does inference.
  EXPECT_EQ(lowered(R"({"oneOf":[{"type":"object","properties":{"t":{"const":"x"}}},
      {"type":"object","required":["t"],"properties":{"t":{"const":"y"}}}]})"),
            "oneOf(t)[{t:\"x\"} | {t!:\"y\"}]");
}

TEST(SchemaLower, ExplicitDiscriminatorWithFallbackBranch) {
  EXPECT_EQ(lowered(R"({"x-sdk-discriminator":"transport","oneOf":[
      {"type":"object","required":["transport"],"properties":{"transport":{"const":"http"}}},
      {"type":"object","required":["transport"],"properties":{"transport":{"type":"string","pattern":"^_.+"}}}]})"),
            "oneOf(transport)[{transport!:\"http\"} | {transport!:string}]");
}

TEST(SchemaLower, ExplicitDiscriminatorErrors) {
  EXPECT_EQ(error({{"a.schema.json", R"({"x-sdk-discriminator":"t","oneOf":[
      {"type":"object","required":["t"],"properties":{"t":{"const":"a"}}},{"type":"object","properties":{"t":{"const":"b"}}}]})"}}),
            "schema/draft/a.schema.json#/oneOf/1: expected the x-sdk-discriminator property \"t\" required "
            "in every branch");
  EXPECT_EQ(error({{"a.schema.json", R"({"x-sdk-discriminator":"t","oneOf":[
      {"required":["t"],"properties":{"t":{"const":"a"}}},{"required":["t"],"properties":{"t":{"const":"a"}}}]})"}}),
            "schema/draft/a.schema.json#/oneOf/1: expected a unique \"t\" literal, \"a\" is used by an "
            "earlier branch");
  EXPECT_EQ(error({{"a.schema.json", R"({"x-sdk-discriminator":"t","oneOf":[
      {"required":["t"],"properties":{"t":{"const":"a"}}},{"required":["t"],"properties":{"t":{"type":"integer"}}}]})"}}),
            "schema/draft/a.schema.json#/oneOf/1: expected \"t\" as a non-empty string literal, or as a "
            "plain string "
            "in one fallback branch");
  EXPECT_EQ(error({{"a.schema.json", R"({"x-sdk-discriminator":"t","anyOf":[true]})"}}),
            "schema/draft/a.schema.json#/x-sdk-discriminator: expected it only beside \"oneOf\"");
}

TEST(SchemaLower, RefWithAnnotationOrValidationSiblingsIsARef) {
  Ir ir =
      ok({{"a.schema.json", R"({"type":"object","properties":{"x":{"$ref":"#/$defs/d","description":"why"},
      "y":{"$ref":"#/$defs/d","minLength":3,"x-note":1}},"$defs":{"d":{"type":"string"}}})"}});
  EXPECT_EQ(type_of(ir, "A"), "{x:@AD, y:@AD}");
  EXPECT_EQ(type_of(ir, "AD"), "string");
}

TEST(SchemaLower, RefWithStructuralSiblingsIsAnIntersection) {
  Ir ir = ok({{"a.schema.json", R"({"type":"object","properties":{
      "x":{"$ref":"#/$defs/d","properties":{"extra":{"type":"string"}}}},"$defs":{"d":{"type":"object"}}})"}});
  EXPECT_EQ(type_of(ir, "A"), "{x:all[@AD & {extra:string}]}");
}

TEST(SchemaLower, RefConstrainedUnionListsExcludedKnownVariantsAsNever) {
  // The intercept-request params.event pattern: {$ref: <union>, oneOf: <subset of its variants>}.
  Ir ir =
      ok({{"event.schema.json", R"({"oneOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/b"},{"$ref":"#/$defs/c"}],
      "$defs":{"a":{"type":"object","required":["type"],"properties":{"type":{"const":"a"}}},
        "b":{"type":"object","required":["type"],"properties":{"type":{"const":"b"}}},
        "c":{"type":"object","required":["type"],"properties":{"type":{"const":"c"}}}}})"},
          {"request.schema.json", R"({"type":"object","required":["event"],"properties":{
      "event":{"$ref":"event.schema.json","oneOf":[{"$ref":"event.schema.json#/$defs/c"},{"$ref":"event.schema.json#/$defs/a"}]}}})"}});
  EXPECT_EQ(type_of(ir, "Event"), "oneOf(type)[@EventA | @EventB | @EventC]");
  EXPECT_EQ(type_of(ir, "Request"),
            "{event!:all[@Event & oneOf(type)[@EventC | @EventA | all[@EventB & never]]]}");
}

TEST(SchemaLower, NamingRule) {
  Ir ir =
      ok({{"session-start.schema.json", R"({"type":"object"})"},
          {"tool-after.schema.json", R"({"type":"object"})"},
          {"schema.json", R"({"oneOf":[{"$ref":"session-start.schema.json"},{"$ref":"x-y_z.schema.json"}]})"},
          {"x-y_z.schema.json", R"({"const":1,"$defs":{"config.change.before":{"type":"string"},
                  "InjectEffect":{"type":"string"},"deep":{"type":"object","properties":{"inner":{"type":"string"}}}}})"},
          {"common.schema.json",
           R"({"$defs":{"id":{"$ref":"x-y_z.schema.json#/$defs/deep/properties/inner"}}})"},
          {"xYZ.schema.json", R"({"$defs":{"ConfigChangeBefore":{"type":"string"}}})"}});
  std::vector<std::string> roots;
  for (const Root& root : ir.roots) roots.push_back(root.snake_name + "=" + root.public_name);
  // common and xYZ hold only $defs: no roots.
  EXPECT_EQ(roots, (std::vector<std::string>{"session_start_event=SessionStartEvent",
                                             "tool_after_event=ToolAfterEvent", "wire_message=WireMessage",
                                             "xyz=XYZ"}));
  std::set<std::string> names;
  for (const auto& [name, type] : ir.types) names.insert(name + "=" + type.source);
  EXPECT_EQ(names, (std::set<std::string>{
                       "CommonId=schema/draft/common.schema.json#/$defs/id",
                       "SessionStartEvent=schema/draft/session-start.schema.json#",
                       "ToolAfterEvent=schema/draft/tool-after.schema.json#",
                       "WireMessage=schema/draft/schema.json#",
                       "XYZ=schema/draft/x-y_z.schema.json#",
                       "XYZConfigChangeBefore=schema/draft/x-y_z.schema.json#/$defs/config.change.before",
                       "XYZConfigChangeBefore2=schema/draft/xYZ.schema.json#/$defs/ConfigChangeBefore",
                       "XYZDeep=schema/draft/x-y_z.schema.json#/$defs/deep",
                       "XYZDeepInner=schema/draft/x-y_z.schema.json#/$defs/deep/properties/inner",
                       "XYZInjectEffect=schema/draft/x-y_z.schema.json#/$defs/InjectEffect",
                   }));
  EXPECT_EQ(type_of(ir, "CommonId"), "@XYZDeepInner");
  EXPECT_EQ(type_of(ir, "XYZDeep"), "{inner:string}");  // named pointers are also kept inline
}

TEST(SchemaLower, StableNamesComeFirst) {
  StableNames names{{"schema/draft/a.schema.json#", "Alpha"},
                    {"schema/draft/a.schema.json#/$defs/d", "Delta"},
                    {"schema/draft/a.schema.json#/properties/p", "Pointer"}};
  Ir ir =
      ok({{"a.schema.json", R"({"type":"object","properties":{"p":{"type":"string"},"q":{"$ref":"#/$defs/e"}},
      "$defs":{"d":{"type":"string"},"e":{"type":"null"}}})"}},
         &names);
  ASSERT_EQ(ir.roots.size(), 1u);
  EXPECT_EQ(ir.roots[0].snake_name, "alpha");
  EXPECT_EQ(type_of(ir, "Alpha"), "{p:string, q:@AE}");
  EXPECT_EQ(type_of(ir, "Delta"), "string");
  EXPECT_EQ(type_of(ir, "Pointer"), "string");
  EXPECT_EQ(ir.types.size(), 4u);
}

TEST(SchemaLower, NameCollisions) {
  StableNames names{{"schema/draft/a.schema.json#/$defs/x", "B"}};
  EXPECT_EQ(error({{"a.schema.json", R"({"$defs":{"x":{"type":"string"}}})"},
                   {"b.schema.json", R"({"type":"string"})"}},
                  &names),
            "schema/draft/b.schema.json#: expected a unique public name, but \"B\" also names "
            "schema/draft/a.schema.json#/$defs/x");
  // Two roots with one rule name.
  EXPECT_EQ(error({{"a-b.schema.json", R"({"type":"string"})"}, {"a_b.schema.json", R"({"type":"string"})"}}),
            "schema/draft/a_b.schema.json#: expected a unique public name, but \"AB\" also names "
            "schema/draft/a-b.schema.json#");
  StableNames bad{{"schema/draft/a.schema.json#", "not a name"}};
  EXPECT_EQ(error({{"a.schema.json", R"({"type":"string"})"}}, &bad),
            "test/manifest.json#/sdkGeneration/stableNames/schema~1draft~1a.schema.json#: expected a public "
            "name (letters, "
            "digits, _)");
}

TEST(SchemaLower, UnknownStableNameKeys) {
  StableNames names{{"schema/draft/a.schema.json#/$defs/gone", "Gone"}};
  EXPECT_EQ(error({{"a.schema.json", R"({"type":"string"})"}}, &names),
            "test/manifest.json#/sdkGeneration/stableNames/schema~1draft~1a.schema.json#~1$defs~1gone: "
            "expected a key "
            "\"<document path>#<JSON pointer>\" naming a node of the schema set");
  auto lenient = build({{"a.schema.json", R"({"type":"string"})"}}, &names, /*strict=*/false);
  ASSERT_TRUE(lenient.ok());
  EXPECT_EQ(lenient.value().types.size(), 1u);
}

TEST(SchemaLower, UnsupportedKeywords) {
  for (const char* keyword :
       {"patternProperties", "prefixItems", "$dynamicRef", "$dynamicAnchor", "dependentSchemas",
        "dependentRequired", "unevaluatedProperties", "unevaluatedItems", "$anchor", "readOnly"}) {
    const std::string text = std::string(R"({"type":"object","properties":{"a":{")") + keyword + R"(":{}}}})";
    EXPECT_EQ(error({{"a.schema.json", text}}),
              std::string("schema/draft/a.schema.json#/properties/a/") + keyword +
                  ": expected a keyword the IR can express, not \"" + keyword + "\"");
  }
  // Also inside validation-only parts, which are never lowered.
  EXPECT_EQ(error({{"a.schema.json", R"({"if":{"patternProperties":{}},"then":true})"}}),
            "schema/draft/a.schema.json#/if/patternProperties: expected a keyword the IR can express, not "
            "\"patternProperties\"");
}

TEST(SchemaLower, MalformedKeywords) {
  EXPECT_EQ(error({{"a.schema.json", R"({"type":"strung"})"}}),
            "schema/draft/a.schema.json#/type: expected a JSON Schema type name (null, boolean, integer, "
            "number, string, "
            "array, object)");
  EXPECT_EQ(error({{"a.schema.json", R"({"oneOf":[]})"}}),
            "schema/draft/a.schema.json#/oneOf: expected a non-empty array of schemas");
  EXPECT_EQ(
      error({{"a.schema.json", R"({"properties":{"a":3}})"}}),
      "schema/draft/a.schema.json#/properties/a: expected a schema (an object or a boolean), got number");
  EXPECT_EQ(error({{"a.schema.json", R"({"required":["a",1]})"}}),
            "schema/draft/a.schema.json#/required/1: expected a property name");
}

TEST(SchemaLower, RefErrors) {
  auto ref_error = [](const std::string& ref) {
    return error({{"a.schema.json",
                   R"({"type":"object","properties":{"x/y":{"$ref":")" + ref + R"("}},"$defs":{"d":true}})"},
                  {"b.schema.json", R"({"type":"string"})"}});
  };
  const std::string at = "schema/draft/a.schema.json#/properties/x~1y/$ref: expected ";
  EXPECT_EQ(ref_error("https://example.com/b.schema.json"),
            at + "a relative $ref inside the schema set, got \"https://example.com/b.schema.json\" (network "
                 "references "
                 "are not followed)");
  EXPECT_EQ(ref_error("//example.com/b.schema.json"),
            at + "a relative $ref inside the schema set, got \"//example.com/b.schema.json\" (network "
                 "references are "
                 "not followed)");
  EXPECT_EQ(
      ref_error("../draft/b.schema.json"),
      at + "a $ref that stays inside the schema directory, got \"../draft/b.schema.json\" (\"..\" escapes)");
  EXPECT_EQ(ref_error("/schema/draft/b.schema.json"),
            at + "a relative $ref, got the absolute path \"/schema/draft/b.schema.json\"");
  EXPECT_EQ(ref_error("c.schema.json"), at + "a $ref to a document of the schema set, got \"c.schema.json\" "
                                             "(no document schema/draft/c.schema.json)");
  EXPECT_EQ(
      ref_error("#/$defs/e"),
      at + "a $ref to an existing node, got \"#/$defs/e\" (schema/draft/a.schema.json has no node /$defs/e)");
  EXPECT_EQ(ref_error("#anchor"),
            at + "a $ref fragment that is a JSON Pointer, got \"#anchor\" (anchors are not supported)");
  // These resolve: same-document, other document, percent-encoded and ~-escaped pointers.
  for (const char* good :
       {"#/$defs/d", "b.schema.json", "b.schema.json#", "#/$defs/%64", "#/properties/x~1y"}) {
    EXPECT_TRUE(build({{"a.schema.json", std::string(R"({"type":"object","properties":{"x/y":{"$ref":")") +
                                             good + R"("}},"$defs":{"d":true}})"},
                       {"b.schema.json", R"({"type":"string"})"}})
                    .ok())
        << good;
  }
}

TEST(SchemaLower, IdsAreDenseAndEveryShapeHasASource) {
  Ir ir = ok({{"a.schema.json", R"({"type":"object","properties":{"u":{"type":["string","null"]},
      "v":{"$ref":"#/$defs/d"}},"$defs":{"d":{"oneOf":[{"const":1},{"type":"array","items":{"type":"integer"}}]}}})"}});
  std::set<std::uint32_t> ids;
  std::set<std::string> sources;
  std::function<void(const ShapePtr&)> walk = [&](const ShapePtr& s) {
    if (!s) return;
    EXPECT_TRUE(ids.insert(s->id).second) << "id " << s->id << " twice";
    sources.insert(s->source);
    walk(s->items);
    for (const Property& p : s->properties) walk(p.shape);
    walk(s->additional_shape);
    for (const ShapePtr& v : s->variants) walk(v);
  };
  for (const auto& [name, type] : ir.types) walk(type.shape);
  EXPECT_EQ(ir.node_count, 9u);  // A: object, union, string, null, ref; AD: union, literal, array, integer
  EXPECT_EQ(ids.size(), ir.node_count);
  EXPECT_EQ(*ids.rbegin(), ir.node_count - 1);
  EXPECT_EQ(sources,
            (std::set<std::string>{
                "schema/draft/a.schema.json#", "schema/draft/a.schema.json#/properties/u",
                "schema/draft/a.schema.json#/properties/v", "schema/draft/a.schema.json#/$defs/d",
                "schema/draft/a.schema.json#/$defs/d/oneOf/0", "schema/draft/a.schema.json#/$defs/d/oneOf/1",
                "schema/draft/a.schema.json#/$defs/d/oneOf/1/items"}));
  IrStats stats = ir.stats();
  EXPECT_EQ(stats.nodes, 9u);
  EXPECT_EQ(stats.types, 2u);
  EXPECT_EQ(stats.nodes_by_kind.at("union"), 2u);
}

TEST(SchemaLower, ClosuresFollowDocumentReferences) {
  const Files files = {{"a.schema.json", R"({"type":"object","properties":{"b":{"$ref":"b.schema.json"}}})"},
                       {"b.schema.json", R"({"type":"object","if":{"$ref":"c.schema.json"},"then":true})"},
                       {"c.schema.json", R"({"type":"string"})"},
                       {"d.schema.json", R"({"$ref":"a.schema.json#/properties/b","type":"object"})"}};
  Ir ir = ok(files);
  const Root* a = ir.find_root("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->closure_documents,
            (std::vector<std::string>{"schema/draft/a.schema.json", "schema/draft/b.schema.json",
                                      "schema/draft/c.schema.json"}));
  std::string lines;
  for (const auto& [file, text] : files) {
    if (file != "d.schema.json") lines += "schema/draft/" + file + " " + sha256_hex(text) + "\n";
  }
  EXPECT_EQ(a->closure_hash, sha256_hex(lines));
  EXPECT_EQ(ir.find_root("C")->closure_documents, std::vector<std::string>{"schema/draft/c.schema.json"});
  EXPECT_EQ(ir.find_root("d")->closure_documents.size(), 4u);
  // A changed document changes every closure that reaches it, and only those.
  Files changed = files;
  changed[2].second = R"({"type":"string","title":"changed"})";
  Ir other = ok(changed);
  EXPECT_NE(other.find_root("a")->closure_hash, a->closure_hash);
  EXPECT_EQ(other.find_root("d")->closure_hash == ir.find_root("d")->closure_hash, false);
  EXPECT_EQ(other.find_root("b")->closure_hash == ir.find_root("b")->closure_hash, false);
  Files unrelated = files;
  unrelated[3].second = R"({"$ref":"a.schema.json#/properties/b","type":"object","title":"x"})";
  EXPECT_EQ(ok(unrelated).find_root("a")->closure_hash, a->closure_hash);
}

}  // namespace
