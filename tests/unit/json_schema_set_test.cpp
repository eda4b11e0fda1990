// json_schema_set_test.cpp: loading several documents: $ref across them by relative file name,
// refusals naming the document and the JSON Pointer, and non-JSON input to the canonical validator.
#include <gtest/gtest.h>

#include "canonical/canonical_validator.hpp"
#include "json/parse.hpp"
#include "json/schema_validator.hpp"

namespace crosscheck::json {
namespace {

Value v(std::string_view text) {
  auto p = parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? std::move(p.value()) : Value();
}

std::vector<SchemaDocument> two_documents(std::string_view main_extra = "") {
  std::vector<SchemaDocument> docs;
  docs.push_back({"schema/t/common.schema.json",
                  v(R"({"$id":"https://x.test/schemas/t/common.schema.json","$defs":{"id":{"type":"string",)"
                    R"("minLength":1}}})")});
  docs.push_back({"schema/t/main.schema.json",
                  v(std::string(R"({"$id":"https://x.test/schemas/t/main.schema.json","type":"object",)") +
                    R"("properties":{"id":{"$ref":"common.schema.json#/$defs/id"},)"
                    R"("abs":{"$ref":"https://x.test/schemas/t/common.schema.json#/%24defs/id"}})" +
                    std::string(main_extra) + "}")});
  return docs;
}

TEST(SchemaSet, ReferencesAcrossDocuments) {
  auto set = SchemaSet::load(two_documents());
  ASSERT_TRUE(set.ok()) << set.error().text();
  EXPECT_TRUE(set->validate(1, v(R"({"id":"a","abs":"b"})")).valid);
  Validation r = set->validate(1, v(R"({"id":"","abs":7})"));
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].path + " " + r.errors[0].keyword, "/id minLength");
  EXPECT_EQ(r.errors[1].path + " " + r.errors[1].keyword, "/abs type");
}

TEST(SchemaSet, RefusesOutOfSubsetKeywordsNamingDocumentAndPointer) {
  auto set = SchemaSet::load(two_documents(R"(,"$defs":{"x":{"items":{"unevaluatedProperties":false}}})"));
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.error().document, "schema/t/main.schema.json");
  EXPECT_EQ(set.error().pointer, "/$defs/x/items/unevaluatedProperties");
  EXPECT_EQ(set.error().text(),
            "schema/t/main.schema.json#/$defs/x/items/unevaluatedProperties: keyword not supported by "
            "crosscheck's schema validator (json/schema_validator.hpp)");
  auto format = SchemaSet::load(two_documents(R"(,"format":"email")"));
  ASSERT_FALSE(format.ok());
  EXPECT_EQ(format.error().pointer, "/format");
  auto ref = SchemaSet::load(two_documents(R"(,"$defs":{"r":{"$ref":"missing.schema.json"}})"));
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().pointer, "/$defs/r/$ref");
  auto anchor = SchemaSet::load(two_documents(R"(,"$defs":{"r":{"$ref":"#anchor"}})"));
  ASSERT_FALSE(anchor.ok());
  auto pattern = SchemaSet::load(two_documents(R"x(,"properties":{"p":{"pattern":"(?<=a)"}})x"));
  ASSERT_FALSE(pattern.ok());
  EXPECT_EQ(pattern.error().pointer, "/properties/p/pattern");
  auto nested_id = SchemaSet::load(two_documents(R"(,"$defs":{"n":{"$id":"other"}})"));
  ASSERT_FALSE(nested_id.ok());
  EXPECT_EQ(nested_id.error().pointer, "/$defs/n/$id");
  // Annotations, including the AHP schemas' x- keywords, are not keywords.
  EXPECT_TRUE(SchemaSet::load(two_documents(R"(,"x-requirements":["r"],"title":"t","$comment":"c")")).ok());
}

TEST(CanonicalValidator, NamesDocumentsAndRefusesNonJsonInput) {
  schema::Ir ir;
  for (auto& d : two_documents()) ir.documents.push_back(schema::Document{d.name, "", std::move(d.body)});
  auto validator = canonical::CanonicalValidator::from_ir(ir);
  ASSERT_TRUE(validator.ok()) << validator.error().text();
  EXPECT_EQ(validator->documents(), (std::vector<std::string>{"common", "main"}));
  EXPECT_FALSE(validator->validate("nope", "{}"));
  auto ok = validator->validate("main", R"({"id":"a"})");
  ASSERT_TRUE(ok);
  EXPECT_EQ(canonical::render(*ok), R"({"outcome":"valid","errors":[],"implementationDefined":[]})");
  auto broken = validator->validate("main", "{\"id\":\n  1,]");
  ASSERT_TRUE(broken);
  EXPECT_FALSE(broken->valid);
  ASSERT_EQ(broken->errors.size(), 1u);
  EXPECT_EQ(broken->errors[0].keyword, "json");
  // The parser's position: simdjson finds the unclosed object at the end of the input.
  EXPECT_EQ(broken->errors[0].message,
            "not JSON: line 2, column 6 (byte 12): expected more input: an array or object is not closed");
  EXPECT_EQ(broken->errors[0].path, "");
  auto bad_utf8 = validator->validate("main", "\"\xff\"");
  ASSERT_TRUE(bad_utf8);
  EXPECT_FALSE(bad_utf8->valid);
  EXPECT_EQ(canonical::document_name("schema/draft/intercept-request.schema.json"), "intercept-request");
  EXPECT_EQ(canonical::document_name("schema/draft/schema.json"), "schema");
}

}  // namespace
}  // namespace crosscheck::json
