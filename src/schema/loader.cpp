// loader.cpp: read a schema directory (manifest.json) or an SDK bundle (schemas.json), verify the
// documents' hashes, and hand them to build_ir (lower.cpp).
#include "schema/loader.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "json/parse.hpp"
#include "json/pointer.hpp"
#include "json/write.hpp"
#include "schema/lower.hpp"
#include "schema/sha256.hpp"

namespace crosscheck::schema {

namespace fs = std::filesystem;

std::string SchemaError::message() const { return document + "#" + pointer + ": expected " + expected; }

namespace {

constexpr std::string_view kDialect = "https://json-schema.org/draft/2020-12/schema";
constexpr std::string_view kIdPrefix = "https://agenthooksprotocol.org/schemas/";
constexpr std::string_view kLockName = "ahp-codegen.lock.json";

struct Failure {
  SchemaError error;
};

[[noreturn]] void fail(std::string document, std::string pointer, std::string expected) {
  throw Failure{SchemaError{std::move(document), std::move(pointer), std::move(expected)}};
}

std::string read_file(const fs::path& path, const std::string& document) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(document, "", "a readable file at " + path.string());
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

json::Value parse_json(const std::string& bytes, const std::string& document) {
  auto parsed = json::parse(bytes);
  if (!parsed) {
    const json::ParseError& e = parsed.error();
    fail(document, "",
         "valid JSON, but at line " + std::to_string(e.line) + ", column " + std::to_string(e.column) +
             " (byte " + std::to_string(e.offset) + ") expected " + e.expected);
  }
  return std::move(parsed).value();
}

const json::Value& member(const json::Value& object, std::string_view key, const std::string& document,
                          const std::string& pointer, json::Kind kind, std::string_view what) {
  const json::Value* value = object.is_object() ? object.find(key) : nullptr;
  if (!value || value->kind() != kind) fail(document, pointer + "/" + std::string(key), std::string(what));
  return *value;
}

bool is_sha256(const json::Value& value) {
  if (!value.is_string() || value.string_value().size() != 64) return false;
  for (char c : value.string_value()) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

/// sdkGeneration.stableNames of a parsed manifest (an absent sdkGeneration: nullopt).
std::optional<StableNames> stable_names(const json::Value& manifest, const std::string& document) {
  const json::Value* generation = manifest.find("sdkGeneration");
  if (!generation) return std::nullopt;
  if (!generation->is_object()) fail(document, "/sdkGeneration", "an object");
  const json::Value& names = member(*generation, "stableNames", document, "/sdkGeneration",
                                    json::Kind::kObject, "an object of stable names");
  StableNames out;
  for (const json::Member& entry : names.members()) {
    if (!entry.value.is_string()) {
      fail(document, "/sdkGeneration/stableNames/" + json::pointer_token(entry.key),
           "a public name (string)");
    }
    out[entry.key] = entry.value.string_value();
  }
  return out;
}

/// The document's own $schema, when present, must be the manifest's dialect.
void check_schema_keyword(const Document& doc) {
  const json::Value* dialect = doc.body.is_object() ? doc.body.find("$schema") : nullptr;
  if (dialect && !(dialect->is_string() && dialect->string_value() == kDialect)) {
    fail(doc.path, "/$schema", "\"" + std::string(kDialect) + "\"");
  }
}

struct Loaded {
  std::vector<Document> documents;
  std::optional<StableNames> names;
  std::string names_document;
};

Ir finish(Loaded loaded, const LoadOptions& options) {
  std::optional<StableNames> borrowed;
  Naming naming;
  if (options.names_from) {
    const std::string& path = *options.names_from;
    json::Value manifest = parse_json(read_file(path, path), path);
    if (!manifest.is_object()) fail(path, "", "a manifest (a JSON object)");
    borrowed = stable_names(manifest, path);
    if (!borrowed) fail(path, "/sdkGeneration", "sdkGeneration.stableNames in the --names-from manifest");
    naming.names = &*borrowed;
    naming.names_document = path;
    naming.strict = false;
  } else if (loaded.names) {
    naming.names = &*loaded.names;
    naming.names_document = loaded.names_document;
  }
  auto built = build_ir(std::move(loaded.documents), naming);
  if (!built) throw Failure{built.error()};
  return std::move(built).value();
}

void check_protocol_version(const Ir& ir, const std::string& manifest_document) {
  for (const Document& doc : ir.documents) {
    if (doc.path != "schema/" + ir.schema_revision + "/common.schema.json" || !doc.body.is_object()) continue;
    const json::Value* defs = doc.body.find("$defs");
    const json::Value* version = defs && defs->is_object() ? defs->find("protocolVersion") : nullptr;
    const json::Value* value = version && version->is_object() ? version->find("const") : nullptr;
    if (value && !(value->is_string() && value->string_value() == ir.protocol_version)) {
      fail(doc.path, "/$defs/protocolVersion/const",
           json::quote(ir.protocol_version) + ", the protocolVersion of " + manifest_document);
    }
  }
}

Ir load_manifest(const fs::path& manifest_path, const std::string& bytes, const LoadOptions& options) {
  const std::string mdoc = manifest_path.string();
  json::Value manifest = parse_json(bytes, mdoc);
  if (!manifest.is_object()) fail(mdoc, "", "a manifest (a JSON object)");
  const json::Value& dialect = member(manifest, "dialect", mdoc, "", json::Kind::kString,
                                      "\"dialect\": \"" + std::string(kDialect) + "\"");
  if (dialect.string_value() != kDialect) {
    fail(mdoc, "/dialect", "\"" + std::string(kDialect) + "\", got " + json::quote(dialect.string_value()));
  }
  Ir header;
  header.origin = "manifest";
  header.source_path = mdoc;
  header.manifest_sha256 = sha256_hex(bytes);
  header.schema_revision =
      member(manifest, "snapshotVersion", mdoc, "", json::Kind::kString, "a snapshotVersion string")
          .string_value();
  header.protocol_version =
      member(manifest, "protocolVersion", mdoc, "", json::Kind::kString, "a protocolVersion string")
          .string_value();
  const json::Value& entries =
      member(manifest, "documents", mdoc, "", json::Kind::kArray, "a documents array of {path, sha256}");
  if (entries.items().empty()) fail(mdoc, "/documents", "at least one document");

  Loaded loaded;
  loaded.names = stable_names(manifest, mdoc);
  loaded.names_document = mdoc;
  // Manifest paths are repository paths ("schema/draft/x.schema.json"); the files sit beside it.
  const std::string prefix = "schema/" + header.schema_revision + "/";
  std::set<std::string> seen;
  for (std::size_t i = 0; i < entries.items().size(); ++i) {
    const json::Value& entry = entries.items()[i];
    const std::string at = "/documents/" + std::to_string(i);
    const std::string& path =
        member(entry, "path", mdoc, at, json::Kind::kString, "a document path").string_value();
    const json::Value* digest = entry.is_object() ? entry.find("sha256") : nullptr;
    if (!digest || !is_sha256(*digest)) fail(mdoc, at + "/sha256", "64 lower-case hex digits");
    if (path.rfind(prefix, 0) != 0 || path.size() == prefix.size() || path.find("..") != std::string::npos) {
      fail(mdoc, at + "/path", "a path under " + prefix + ", got " + json::quote(path));
    }
    if (!seen.insert(path).second)
      fail(mdoc, at + "/path", "each document once, " + path + " is listed twice");
    const std::string file_bytes = read_file(manifest_path.parent_path() / path.substr(prefix.size()), path);
    Document doc;
    doc.path = path;
    doc.sha256 = sha256_hex(file_bytes);
    if (doc.sha256 != digest->string_value()) {
      fail(path, "", "sha256 " + digest->string_value() + " (from " + mdoc + "), got " + doc.sha256);
    }
    doc.body = parse_json(file_bytes, path);
    check_schema_keyword(doc);
    loaded.documents.push_back(std::move(doc));
  }
  Ir ir = finish(std::move(loaded), options);
  ir.origin = header.origin;
  ir.source_path = header.source_path;
  ir.manifest_sha256 = header.manifest_sha256;
  ir.schema_revision = header.schema_revision;
  ir.protocol_version = header.protocol_version;
  check_protocol_version(ir, mdoc);
  return ir;
}

Ir load_bundle(const fs::path& bundle_path, const std::string& bytes, const LoadOptions& options) {
  const std::string bdoc = bundle_path.string();
  json::Value bundle = parse_json(bytes, bdoc);
  Loaded loaded;
  std::string revision;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < bundle.items().size(); ++i) {
    json::Value& body = bundle.items()[i];
    const std::string at = "/" + std::to_string(i);
    const json::Value* id = body.is_object() ? body.find("$id") : nullptr;
    if (!id) fail(bdoc, at, "a schema document with \"$id\"");
    const std::string expected_id = "\"$id\": \"" + std::string(kIdPrefix) + "<revision>/<file>\"";
    if (!id->is_string() || id->string_value().rfind(kIdPrefix, 0) != 0) fail(bdoc, at + "/$id", expected_id);
    std::string rest = id->string_value().substr(kIdPrefix.size());
    std::size_t slash = rest.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == rest.size() ||
        rest.find('/', slash + 1) != std::string::npos || rest.find("..") != std::string::npos) {
      fail(bdoc, at + "/$id", expected_id + ", got " + json::quote(id->string_value()));
    }
    const std::string this_revision = rest.substr(0, slash);
    if (revision.empty()) revision = this_revision;
    if (this_revision != revision) {
      fail(bdoc, at + "/$id",
           "revision " + json::quote(revision) + " like the first document, got " +
               json::quote(this_revision));
    }
    Document doc;
    doc.path = "schema/" + rest;
    if (!seen.insert(doc.path).second)
      fail(bdoc, at + "/$id", "each document once, " + doc.path + " is twice");
    // The upstream files are json.dumps(indent=2) + "\n": re-serializing gives their exact bytes.
    doc.sha256 = sha256_hex(json::write_python_indent2(body));
    doc.body = std::move(body);
    check_schema_keyword(doc);
    loaded.documents.push_back(std::move(doc));
  }
  if (loaded.documents.empty()) fail(bdoc, "", "a non-empty array of schema documents");

  Ir header;
  header.origin = "bundle";
  header.source_path = bdoc;
  header.schema_revision = revision;
  header.protocol_version = revision;
  const fs::path lock_path = bundle_path.parent_path() / kLockName;
  if (fs::exists(lock_path)) {
    const std::string ldoc = lock_path.string();
    json::Value lock = parse_json(read_file(lock_path, ldoc), ldoc);
    if (!lock.is_object()) fail(ldoc, "", "a lock object");
    const json::Value* manifest_sha = lock.find("schemaManifestSha256");
    if (!manifest_sha || !is_sha256(*manifest_sha))
      fail(ldoc, "/schemaManifestSha256", "64 lower-case hex digits");
    header.manifest_sha256 = manifest_sha->string_value();
    if (const json::Value* v = lock.find("schemaRevision"); v && v->is_string()) {
      if (v->string_value() != revision) {
        fail(ldoc, "/schemaRevision",
             json::quote(revision) + " (the bundle's $id revision), got " + json::quote(v->string_value()));
      }
    }
    if (const json::Value* v = lock.find("protocolVersion"); v && v->is_string()) {
      header.protocol_version = v->string_value();
    }
    const json::Value& entries =
        member(lock, "documents", ldoc, "", json::Kind::kArray, "a documents array of {path, sha256}");
    std::map<std::string, const Document*> by_path;
    for (const Document& doc : loaded.documents) by_path[doc.path] = &doc;
    std::set<std::string> locked;
    for (std::size_t i = 0; i < entries.items().size(); ++i) {
      const json::Value& entry = entries.items()[i];
      const std::string at = "/documents/" + std::to_string(i);
      const std::string& path =
          member(entry, "path", ldoc, at, json::Kind::kString, "a document path").string_value();
      const json::Value* digest = entry.find("sha256");
      if (!digest || !is_sha256(*digest)) fail(ldoc, at + "/sha256", "64 lower-case hex digits");
      auto it = by_path.find(path);
      if (it == by_path.end())
        fail(ldoc, at + "/path", "a document of the bundle, " + path + " is not in " + bdoc);
      if (it->second->sha256 != digest->string_value()) {
        fail(path, "",
             "sha256 " + digest->string_value() + " (from " + ldoc + "), got " + it->second->sha256);
      }
      locked.insert(path);
    }
    for (const Document& doc : loaded.documents) {
      if (!locked.count(doc.path))
        fail(ldoc, "/documents", "an entry for every bundled document, " + doc.path + " has none");
    }
    header.lock = std::move(lock);
  }
  Ir ir = finish(std::move(loaded), options);
  ir.origin = header.origin;
  ir.source_path = header.source_path;
  ir.manifest_sha256 = header.manifest_sha256;
  ir.schema_revision = header.schema_revision;
  ir.protocol_version = header.protocol_version;
  ir.lock = std::move(header.lock);
  return ir;
}

}  // namespace

Result<Ir, SchemaError> load_schema(const std::string& path, const LoadOptions& options) {
  try {
    fs::path file = path;
    std::error_code ec;
    if (fs::is_directory(file, ec)) {
      if (fs::exists(file / "manifest.json", ec)) {
        file /= "manifest.json";
      } else if (fs::exists(file / "schemas.json", ec)) {
        file /= "schemas.json";
      } else {
        fail(path, "", "a schema directory with manifest.json (or an SDK's schemas.json bundle)");
      }
    } else if (!fs::exists(file, ec)) {
      fail(path, "", "an existing schema directory, manifest.json or schemas.json bundle");
    }
    const std::string bytes = read_file(file, file.string());
    // The top level decides: a manifest is an object, a bundle an array of documents.
    std::size_t first = bytes.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && bytes[first] == '[') return load_bundle(file, bytes, options);
    return load_manifest(file, bytes, options);
  } catch (Failure& failure) {
    return std::move(failure.error);
  }
}

std::optional<std::string> default_schema_path() {
  if (const char* env = std::getenv("CROSSCHECK_SCHEMA"); env && *env) return std::string(env);
  std::ifstream in(std::string(CROSSCHECK_SOURCE_DIR) + "/.deps/schema-path");
  std::string line;
  if (in && std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) return line;
  }
  return std::nullopt;
}

}  // namespace crosscheck::schema
