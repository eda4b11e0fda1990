// command_schema.cpp: `crosscheck schema`: load a schema source and show what the IR holds.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.hpp"
#include "json/write.hpp"
#include "schema/loader.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

struct SchemaOptions {
  std::string schema;
  std::string names_from;
  bool emit_ir = false;
};

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

int run_schema(const SchemaOptions& options) {
  std::string path = options.schema;
  if (path.empty()) {
    auto found = schema::default_schema_path();
    if (!found) {
      throw Fatal(
          "no schema: set-up has not been run (run ./setup install, which records the SDK's bundle in "
          ".deps/schema-path), or pass --schema PATH, or set CROSSCHECK_SCHEMA");
    }
    path = *found;
  }
  schema::LoadOptions load;
  if (!options.names_from.empty()) load.names_from = options.names_from;
  auto loaded = schema::load_schema(path, load);
  if (!loaded) throw Fatal(loaded.error().message());
  const schema::Ir& ir = loaded.value();

  if (options.emit_ir) {
    json::WriteOptions pretty;
    pretty.indent = 2;
    std::cout << json::write(ir.to_json(), pretty) << "\n";
    return kExitClean;
  }

  std::cout << "schema     " << ir.source_path << "\n";
  std::cout << "origin     " << ir.origin << " (" << ir.documents.size()
            << " documents, sha256 verified against "
            << (ir.origin == "manifest" ? "the manifest"
                : ir.lock               ? "ahp-codegen.lock.json"
                                        : "nothing: no ahp-codegen.lock.json beside the bundle")
            << ")\n";
  std::cout << "revision   " << ir.schema_revision << " (protocol " << ir.protocol_version << ")\n";
  std::cout << "manifest   " << (ir.manifest_sha256.empty() ? "(unknown)" : ir.manifest_sha256) << "\n";
  std::cout << "names      "
            << (!options.names_from.empty() ? "stableNames of " + options.names_from
                : ir.origin == "manifest"   ? std::string("the manifest's stableNames, then the naming rule")
                                            : std::string("naming rule (docs/schema-ir.md)"))
            << "\n\n";

  std::size_t w_snake = 10, w_public = 11, w_doc = 8;
  for (const schema::Root& root : ir.roots) {
    w_snake = std::max(w_snake, root.snake_name.size());
    w_public = std::max(w_public, root.public_name.size());
    w_doc = std::max(w_doc, root.document.size());
  }
  std::cout << "roots (" << ir.roots.size() << ")\n";
  std::cout << "  " << pad("snake_name", w_snake) << "  " << pad("public name", w_public) << "  "
            << pad("document", w_doc) << "  closure       docs\n";
  for (const schema::Root& root : ir.roots) {
    std::cout << "  " << pad(root.snake_name, w_snake) << "  " << pad(root.public_name, w_public) << "  "
              << pad(root.document, w_doc) << "  " << root.closure_hash.substr(0, 12) << "  "
              << root.closure_documents.size() << "\n";
  }
  const schema::IrStats stats = ir.stats();
  std::cout << "\nIR         " << stats.types << " types, " << stats.roots << " roots, " << stats.nodes
            << " nodes\n";
  std::cout << "nodes      ";
  bool first = true;
  for (const auto& [kind, count] : stats.nodes_by_kind) {
    std::cout << (first ? "" : ", ") << kind << " " << count;
    first = false;
  }
  std::cout << "\n";
  return kExitClean;
}

const Registration kSchema{CommandSpec{
    "schema", "Load a schema directory or SDK bundle, verify it, and show its roots and IR",
    "  crosscheck schema                                   # the bundle ./setup install recorded\n"
    "  crosscheck schema --schema path/to/schema/draft     # a spec checkout's schema directory\n"
    "  crosscheck schema --schema .venv/lib/python3.11/site-packages/agenthooksprotocol/schemas.json \\\n"
    "      --names-from path/to/schema/draft/manifest.json # a bundle named by a manifest's stableNames\n"
    "  crosscheck schema --emit-ir > ir.json               # the IR in ahp-codegen --emit-ir layout\n"
    "Exit status: 0 loaded; 2 schema error (ERROR: <document>#<pointer>: expected ...) or no schema.\n",
    [](CLI::App& sub) -> std::function<int()> {
      auto options = std::make_shared<SchemaOptions>();
      sub.add_option("--schema", options->schema,
                     "Schema directory with manifest.json, a manifest.json, or an SDK schemas.json bundle "
                     "(default: $CROSSCHECK_SCHEMA, then the bundle recorded by ./setup install)");
      sub.add_option("--names-from", options->names_from,
                     "A manifest.json whose sdkGeneration.stableNames name the types (for bundles)");
      sub.add_flag("--emit-ir", options->emit_ir, "Print the IR as JSON (ahp-codegen --emit-ir layout)");
      return [options] { return run_schema(*options); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
