// lower.hpp: from loaded schema documents to the IR (naming, $ref resolution, lowering).
//
// The loader reads and verifies the documents; build_ir does everything that depends only on their
// content: it checks every keyword against the supported list, resolves $refs, names every type
// (stableNames first, then the naming rule of docs/schema-ir.md), lowers each named node by the
// generator's rules (ahp-spec.md 2.3), infers union discriminators, completes $ref-constrained
// unions with their excluded known variants, assigns dense shape ids and computes root closures.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "schema/ir.hpp"
#include "schema/loader.hpp"
#include "util/result.hpp"

namespace crosscheck::schema {

/// "<doc path>#<JSON pointer>" -> public name, as in a manifest's sdkGeneration.stableNames.
using StableNames = std::map<std::string, std::string, std::less<>>;

struct Naming {
  const StableNames* names = nullptr;  ///< nullptr: the naming rule names everything
  std::string names_document;          ///< where `names` came from, for error messages
  /// A stable-name key that names no node is an error (a manifest's own names). False for names
  /// borrowed with --names-from from another revision: such keys are ignored.
  bool strict = true;
};

/// `documents` must have distinct paths; their bodies are the parsed schema documents. Fills
/// Ir::documents (sorted by path), types, roots and node_count; the caller fills the rest.
Result<Ir, SchemaError> build_ir(std::vector<Document> documents, const Naming& naming);

/// Separators dropped, each word's first letter upper-cased: "config.change.before" ->
/// "ConfigChangeBefore", "jsonRpcId" -> "JsonRpcId".
std::string pascal_case(std::string_view text);

/// The naming rule's name for a document root: "schema/draft/intercept-request.schema.json" ->
/// "InterceptRequest"; session-start/session-end/tool-before/tool-after get an "Event" suffix and
/// schema.json is "WireMessage" (the names the upstream manifest gives them).
std::string root_public_name(std::string_view document_path);

/// True for the keywords the lowering accepts (x-* extensions are accepted separately).
bool supported_keyword(std::string_view keyword);

}  // namespace crosscheck::schema
