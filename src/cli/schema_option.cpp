// schema_option.cpp: --schema resolution for every command.
#include "cli/schema_option.hpp"

#include "schema/loader.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {

schema::Ir load_ir_or_fail(const std::string& path) {
  std::string chosen = path;
  if (chosen.empty()) {
    auto found = schema::default_schema_path();
    if (!found) {
      throw Fatal(
          "no schema given and none installed: run ./setup install (it installs the pinned Python SDK and "
          "its "
          "schemas.json), or pass --schema PATH (a schema folder with manifest.json, or an SDK's "
          "schemas.json)");
    }
    chosen = *found;
  }
  auto ir = schema::load_schema(chosen);
  if (!ir.ok()) throw Fatal(ir.error().message());
  return std::move(ir).value();
}

}  // namespace crosscheck::cli
