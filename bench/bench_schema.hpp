// bench_schema.hpp: the schema a benchmark measures on: --schema PATH, or the bundle set-up installed.
#pragma once

#include <iostream>
#include <optional>
#include <string>

#include "schema/loader.hpp"

namespace crosscheck::bench {

/// The IR of `path` ("" for set-up's bundle), or nullopt after saying why on stderr (the benchmark
/// then measures nothing and exits 2).
inline std::optional<schema::Ir> load_bench_schema(std::string path) {
  if (path.empty()) {
    auto found = schema::default_schema_path();
    if (!found) {
      std::cerr
          << "ERROR: no schema installed (run ./setup install) and no --schema given; nothing measured\n";
      return std::nullopt;
    }
    path = *found;
  }
  auto ir = schema::load_schema(path);
  if (!ir.ok()) {
    std::cerr << "ERROR: " << ir.error().message() << "\n";
    return std::nullopt;
  }
  return std::move(ir).value();
}

}  // namespace crosscheck::bench
