// schema_option.hpp: the --schema option shared by every command that needs the IR.
#pragma once

#include <string>

#include "schema/ir.hpp"

namespace crosscheck::cli {

/// Loads `path`, or the bundle set-up installed when `path` is empty. Throws Fatal (exit 2) naming
/// the document, pointer and expectation, or saying that ./setup install has not been run.
schema::Ir load_ir_or_fail(const std::string& path);

}  // namespace crosscheck::cli
