// command_serve_adapter.cpp: `crosscheck serve-adapter`, the C++ reference behind adapter protocol
// v1 on stdin/stdout (src/reference_adapter).
#include <memory>
#include <string>

#include "cli/command.hpp"
#include "cli/schema_option.hpp"
#include "reference_adapter/reference_adapter.hpp"

namespace crosscheck::cli {
namespace {

const Registration kServeAdapter{CommandSpec{
    "serve-adapter", "Serve the C++ decoder over adapter protocol v1 on stdin/stdout (the 'cpp' adapter)",
    "  printf '%s\\n' '{\"op\":\"hello\",\"protocol\":1}' | crosscheck serve-adapter\n"
    "  crosscheck serve-adapter --schema path/to/schemas.json",
    [](CLI::App& sub) {
      auto schema = std::make_shared<std::string>();
      auto echo_input = std::make_shared<bool>(false);
      sub.add_option("--schema", *schema, "Schema folder (with manifest.json) or SDK schemas.json bundle");
      sub.add_flag("--echo-input", *echo_input,
                   "Benchmarks only: answer every decode 'accepted' with its input as the encoding, without "
                   "decoding (what the protocol alone costs; bench/README.md). Not an implementation");
      return [schema, echo_input] { return reference_adapter::serve(load_ir_or_fail(*schema), *echo_input); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
