// schema_loader_test.cpp: load_schema on the small schema sets of tests/data/schemas (written by
// its regenerate.py): manifest directories, SDK-style bundles with and without a lock, borrowed
// names, and the exact message of every loading error.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "json/parse.hpp"
#include "json/write.hpp"
#include "schema/loader.hpp"
#include "schema/sha256.hpp"

using namespace crosscheck;
using namespace crosscheck::schema;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(CROSSCHECK_TEST_SCHEMAS) + "/";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

Ir load_ok(const std::string& path, const LoadOptions& options = {}) {
  auto result = load_schema(path, options);
  EXPECT_TRUE(result.ok()) << result.error().message();
  return result.ok() ? std::move(result).value() : Ir();
}

std::string load_error(const std::string& path, const LoadOptions& options = {}) {
  auto result = load_schema(path, options);
  EXPECT_FALSE(result.ok()) << path;
  return result.ok() ? "(loaded)" : result.error().message();
}

std::vector<std::string> root_names(const Ir& ir) {
  std::vector<std::string> out;
  for (const Root& root : ir.roots) out.push_back(root.snake_name + "=" + root.public_name);
  return out;
}

TEST(SchemaLoader, ManifestDirectory) {
  Ir ir = load_ok(kData + "mini");
  EXPECT_EQ(ir.origin, "manifest");
  EXPECT_EQ(ir.source_path, kData + "mini/manifest.json");
  EXPECT_EQ(ir.schema_revision, "draft");
  EXPECT_EQ(ir.protocol_version, "draft");
  EXPECT_EQ(ir.manifest_sha256, sha256_hex(slurp(kData + "mini/manifest.json")));
  EXPECT_FALSE(ir.lock.has_value());
  ASSERT_EQ(ir.documents.size(), 4u);
  for (const Document& doc : ir.documents) {
    // Hashes are of the files' raw bytes.
    const std::string file = kData + "mini/" + doc.path.substr(std::string("schema/draft/").size());
    EXPECT_EQ(doc.sha256, sha256_hex(slurp(file))) << doc.path;
  }
  EXPECT_EQ(root_names(ir),
            (std::vector<std::string>{"event=Event", "mini_request=MiniRequest", "ping_event=PingEvent"}));
  // stableNames first, then the naming rule for the unnamed $defs and $ref targets.
  std::vector<std::string> types;
  for (const auto& [name, type] : ir.types) types.push_back(name);
  EXPECT_EQ(types, (std::vector<std::string>{"CommonId", "CommonProtocolVersion", "CommonRequest", "Event",
                                             "EventStop", "MiniRequest", "PingEvent", "PongEvent"}));
  const Root* request = ir.find_root("mini_request");
  ASSERT_NE(request, nullptr);
  EXPECT_EQ(request->closure_documents.size(), 4u);
  EXPECT_EQ(ir.find_root("PingEvent")->closure_documents,
            std::vector<std::string>{"schema/draft/ping.schema.json"});
  // The restricted event union: ping and pong allowed, stop known but excluded.
  const Shape& shape = *ir.root_shape(*request);
  ASSERT_EQ(shape.kind, ShapeKind::kIntersection);
  const Shape& object = *shape.variants.at(1);
  ASSERT_EQ(object.kind, ShapeKind::kObject);
  const Shape& params = *object.properties.at(1).shape;
  EXPECT_EQ(object.properties.at(1).wire_name, "params");
  const Shape& event = *params.properties.at(0).shape;
  ASSERT_EQ(event.kind, ShapeKind::kIntersection);
  EXPECT_EQ(event.variants.at(0)->ref, "Event");
  const Shape& allowed = *event.variants.at(1);
  ASSERT_EQ(allowed.kind, ShapeKind::kUnion);
  EXPECT_EQ(allowed.discriminator, "type");
  ASSERT_EQ(allowed.variants.size(), 3u);
  EXPECT_EQ(allowed.variants[0]->ref, "PingEvent");
  EXPECT_EQ(allowed.variants[1]->ref, "PongEvent");
  ASSERT_EQ(allowed.variants[2]->kind, ShapeKind::kIntersection);
  EXPECT_EQ(allowed.variants[2]->variants.at(0)->ref, "EventStop");
  EXPECT_EQ(allowed.variants[2]->variants.at(1)->kind, ShapeKind::kNever);
}

TEST(SchemaLoader, ManifestFileItself) {
  Ir ir = load_ok(kData + "mini/manifest.json");
  EXPECT_EQ(ir.roots.size(), 3u);
}

TEST(SchemaLoader, BundleWithLock) {
  Ir ir = load_ok(kData + "mini-bundle/schemas.json");
  EXPECT_EQ(ir.origin, "bundle");
  EXPECT_EQ(ir.schema_revision, "draft");
  ASSERT_TRUE(ir.lock.has_value());
  EXPECT_EQ(ir.lock->find("language")->string_value(), "test");
  std::string lock_manifest_sha;  // the test lock's schemaManifestSha256: "abab...ab"
  for (int i = 0; i < 32; ++i) lock_manifest_sha += "ab";
  EXPECT_EQ(ir.manifest_sha256, lock_manifest_sha);
  // Bundles carry no stableNames: the naming rule names everything.
  EXPECT_EQ(root_names(ir), (std::vector<std::string>{"event=Event", "ping=Ping", "request=Request"}));
  // The recomputed hashes equal the manifest directory's file hashes, so closures agree (no skew).
  Ir dir = load_ok(kData + "mini");
  ASSERT_EQ(ir.documents.size(), dir.documents.size());
  for (std::size_t i = 0; i < ir.documents.size(); ++i) {
    EXPECT_EQ(ir.documents[i].path, dir.documents[i].path);
    EXPECT_EQ(ir.documents[i].sha256, dir.documents[i].sha256) << ir.documents[i].path;
  }
  EXPECT_EQ(ir.find_root("event")->closure_hash, dir.find_root("event")->closure_hash);
  // A directory holding only schemas.json is a bundle too.
  EXPECT_EQ(load_ok(kData + "mini-bundle").origin, "bundle");
}

TEST(SchemaLoader, BundleWithoutLock) {
  Ir ir = load_ok(kData + "mini-bundle-nolock/schemas.json");
  EXPECT_FALSE(ir.lock.has_value());
  EXPECT_EQ(ir.manifest_sha256, "");
  EXPECT_EQ(ir.roots.size(), 3u);
}

TEST(SchemaLoader, NamesFromAManifest) {
  LoadOptions options;
  options.names_from = kData + "names-only/manifest.json";
  // The borrowed manifest also names a document this bundle lacks: ignored.
  Ir ir = load_ok(kData + "mini-bundle/schemas.json", options);
  EXPECT_EQ(root_names(ir),
            (std::vector<std::string>{"event=Event", "mini_request=MiniRequest", "ping_event=PingEvent"}));
  EXPECT_NE(ir.find_type("PongEvent"), nullptr);
  EXPECT_NE(ir.find_type("EventStop"), nullptr);
  EXPECT_EQ(ir.find_type("Gone"), nullptr);
}

TEST(SchemaLoader, ManifestErrors) {
  EXPECT_EQ(
      load_error(kData + "no-manifest"),
      kData +
          "no-manifest#: expected a schema directory with manifest.json (or an SDK's schemas.json bundle)");
  EXPECT_EQ(
      load_error(kData + "does-not-exist"),
      kData + "does-not-exist#: expected an existing schema directory, manifest.json or schemas.json bundle");
  EXPECT_EQ(load_error(kData + "malformed-manifest"),
            kData +
                "malformed-manifest/manifest.json#: expected valid JSON, but at line 2, column 17 (byte 33) "
                "expected a JSON value");
  EXPECT_EQ(
      load_error(kData + "bad-dialect"),
      kData +
          "bad-dialect/manifest.json#/dialect: expected \"https://json-schema.org/draft/2020-12/schema\", "
          "got \"http://json-schema.org/draft-07/schema#\"");
  EXPECT_EQ(load_error(kData + "no-documents"),
            kData + "no-documents/manifest.json#/documents: expected a documents array of {path, sha256}");
  EXPECT_EQ(load_error(kData + "names-only"),
            kData + "names-only/manifest.json#/documents: expected at least one document");
}

TEST(SchemaLoader, Sha256Mismatch) {
  const std::string actual = sha256_hex(slurp(kData + "sha-mismatch/a.schema.json"));
  EXPECT_EQ(load_error(kData + "sha-mismatch"), "schema/draft/a.schema.json#: expected sha256 " +
                                                    sha256_hex("something else") + " (from " + kData +
                                                    "sha-mismatch/manifest.json), got " + actual);
}

TEST(SchemaLoader, BundleErrors) {
  EXPECT_EQ(load_error(kData + "bundle-no-id/schemas.json"),
            kData + "bundle-no-id/schemas.json#/1: expected a schema document with \"$id\"");
  const auto documents = json::parse(slurp(kData + "bundle-lock-mismatch/schemas.json"));
  ASSERT_TRUE(documents.ok());
  const std::string actual = sha256_hex(json::write_python_indent2(documents.value().items().at(2)));
  EXPECT_EQ(load_error(kData + "bundle-lock-mismatch/schemas.json"),
            "schema/draft/event.schema.json#: expected sha256 " + std::string(64, '0') + " (from " + kData +
                "bundle-lock-mismatch/ahp-codegen.lock.json), got " + actual);
}

TEST(SchemaLoader, ReferenceErrors) {
  EXPECT_EQ(load_error(kData + "unresolvable-ref"),
            "schema/draft/a.schema.json#/properties/x/$ref: expected a $ref to an existing node, got "
            "\"#/$defs/missing\" "
            "(schema/draft/a.schema.json has no node /$defs/missing)");
  EXPECT_EQ(
      load_error(kData + "missing-document-ref"),
      "schema/draft/a.schema.json#/properties/x/$ref: expected a $ref to a document of the schema set, got "
      "\"other.schema.json\" (no document schema/draft/other.schema.json)");
  EXPECT_EQ(
      load_error(kData + "network-ref"),
      "schema/draft/a.schema.json#/properties/x/$ref: expected a relative $ref inside the schema set, got "
      "\"https://example.com/schemas/x.schema.json\" (network references are not followed)");
  EXPECT_EQ(load_error(kData + "dotdot-ref"),
            "schema/draft/a.schema.json#/properties/x/$ref: expected a $ref that stays inside the schema "
            "directory, got "
            "\"../other/x.schema.json\" (\"..\" escapes)");
}

TEST(SchemaLoader, KeywordsTheIrCannotExpress) {
  const std::pair<const char*, const char*> cases[] = {
      {"pattern-properties",
       "/patternProperties: expected a keyword the IR can express, not \"patternProperties\""},
      {"prefix-items", "/prefixItems: expected a keyword the IR can express, not \"prefixItems\""},
      {"dynamic-ref",
       "/$defs/node/properties/next/$dynamicRef: expected a keyword the IR can express, not \"$dynamicRef\""},
      {"dependent-schemas",
       "/dependentSchemas: expected a keyword the IR can express, not \"dependentSchemas\""},
      {"unevaluated-properties",
       "/unevaluatedProperties: expected a keyword the IR can express, not \"unevaluatedProperties\""},
  };
  for (const auto& [dir, tail] : cases) {
    EXPECT_EQ(load_error(kData + dir), std::string("schema/draft/a.schema.json#") + tail);
  }
}

TEST(SchemaLoader, NameErrors) {
  EXPECT_EQ(
      load_error(kData + "name-collision"),
      kData +
          "name-collision/manifest.json#/sdkGeneration/stableNames/schema~1draft~1b.schema.json#: expected a "
          "unique public name, but \"Thing\" also names schema/draft/a.schema.json#/$defs/x");
  EXPECT_EQ(load_error(kData + "unknown-stable-name"),
            kData +
                "unknown-stable-name/manifest.json#/sdkGeneration/stableNames/"
                "schema~1draft~1a.schema.json#~1$defs~1nope: "
                "expected a key \"<document path>#<JSON pointer>\" naming a node of the schema set");
  LoadOptions options;
  options.names_from = kData + "does-not-exist.json";
  EXPECT_EQ(load_error(kData + "mini-bundle", options),
            kData + "does-not-exist.json#: expected a readable file at " + kData + "does-not-exist.json");
}

TEST(SchemaLoader, DefaultSchemaPathPrefersTheEnvironment) {
  const char* saved = std::getenv("CROSSCHECK_SCHEMA");
  const std::string restore = saved ? saved : "";
  ::setenv("CROSSCHECK_SCHEMA", "/some/where/schemas.json", 1);
  EXPECT_EQ(default_schema_path(), std::optional<std::string>("/some/where/schemas.json"));
  ::unsetenv("CROSSCHECK_SCHEMA");
  // Without it: the first line of .deps/schema-path, when set-up wrote one.
  const std::string recorded = std::string(CROSSCHECK_SOURCE_DIR) + "/.deps/schema-path";
  if (fs::exists(recorded)) {
    std::string line = slurp(recorded);
    line = line.substr(0, line.find('\n'));
    EXPECT_EQ(default_schema_path(), std::optional<std::string>(line));
  } else {
    EXPECT_EQ(default_schema_path(), std::nullopt);
  }
  if (saved) ::setenv("CROSSCHECK_SCHEMA", restore.c_str(), 1);
}

}  // namespace
