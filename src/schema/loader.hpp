// loader.hpp: load AHP schemas into the IR.
//
// Two sources: a schema directory with manifest.json (dialect checked, every document's sha256
// verified, sdkGeneration.stableNames read, relative $refs resolved across documents), or an SDK's
// bundled schemas.json (a JSON array of the documents, as the Python and Rust SDKs ship it) with the
// SDK's ahp-codegen.lock.json beside it when present (document hashes recomputed in the upstream
// format and verified against the lock). Bundles carry no stableNames: names then follow the naming
// rule documented in docs/schema-ir.md, or a manifest given as `names_from`.
#pragma once

#include <optional>
#include <string>

#include "schema/ir.hpp"
#include "util/result.hpp"

namespace crosscheck::schema {

struct SchemaError {
  std::string document;  ///< file or document path
  std::string pointer;   ///< JSON Pointer inside it ("" for the whole document)
  std::string expected;  ///< what was expected there
  /// "<document>#<pointer>: expected <expected>"
  std::string message() const;
};

struct LoadOptions {
  /// A manifest.json whose stableNames name the types of a bundle.
  std::optional<std::string> names_from;
};

/// `path`: a directory holding manifest.json, a manifest.json file, or a schemas.json bundle.
Result<Ir, SchemaError> load_schema(const std::string& path, const LoadOptions& options = {});

/// The bundle that set-up installed (the pinned Python SDK's schemas.json), found through
/// $CROSSCHECK_SCHEMA, then <source dir>/.deps/schema-path (written by set-up). nullopt if none.
std::optional<std::string> default_schema_path();

}  // namespace crosscheck::schema
