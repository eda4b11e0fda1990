// command_decode.cpp: `crosscheck decode`, the C++ structural decoder on one payload.
#include <iostream>
#include <string>

#include "cli/command.hpp"
#include "cli/payload_input.hpp"
#include "cli/schema_option.hpp"
#include "decoder/decoder.hpp"
#include "json/write.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

/// {"outcome", "diagnostics":[{path, code, severity, message}], "encoded": <value> | null} on one line.
std::string render(const decoder::DecodeResult& result) {
  std::string out = R"({"outcome":)";
  out += result.accepted ? R"("accepted")" : R"("rejected")";
  out += R"(,"diagnostics":[)";
  for (std::size_t i = 0; i < result.diagnostics.size(); ++i) {
    const auto& d = result.diagnostics[i];
    if (i) out += ',';
    out += R"({"path":)" + json::quote(d.path) + R"(,"code":)" + json::quote(d.code) + R"(,"severity":)" +
           json::quote(decoder::severity_name(d.severity)) + R"(,"message":)" + json::quote(d.message) + "}";
  }
  // The encoded text is itself JSON: embedding it verbatim makes it a value, not a string.
  out += R"(],"encoded":)" + (result.encoded ? *result.encoded : std::string("null")) + "}\n";
  return out;
}

const CommandSpec kSpec{
    "decode", "Decode one payload with the C++ structural decoder and print the outcome as JSON",
    "  crosscheck decode --root intercept_request payload.json\n"
    "  echo '{\"type\":\"allow\"}' | crosscheck decode --root effect -\n"
    "  crosscheck decode --root InterceptRequest --schema schemas/draft payload.json\n"
    "Exit status: 0 accepted, 1 rejected, 2 usage, schema or input error.\n",
    [](CLI::App& sub) -> std::function<int()> {
      auto root = std::make_shared<std::string>();
      auto schema_path = std::make_shared<std::string>();
      auto file = std::make_shared<std::string>();
      sub.add_option("--root", *root, "Root to decode as: snake_case (intercept_request) or public name")
          ->required();
      sub.add_option(
          "--schema", *schema_path,
          "Schema directory, manifest.json or SDK schemas.json bundle (default: the installed bundle)");
      sub.add_option("file", *file, "Payload file, or - for standard input")->required();
      return [root, schema_path, file]() -> int {
        schema::Ir ir = load_ir_or_fail(*schema_path);
        const schema::Root* found = ir.find_root(*root);
        if (!found) {
          std::string known;
          for (const auto& r : ir.roots) known += (known.empty() ? "" : ", ") + r.snake_name;
          throw Fatal("unknown root " + *root + "; known roots: " + known);
        }
        std::string bytes = read_payload_or_fail(*file);
        decoder::Decoder decoder(ir);
        decoder::DecodeResult result = decoder.decode(*found, bytes);
        std::cout << render(result) << std::flush;
        return result.accepted ? kExitClean : kExitDivergence;
      };
    }};

const Registration kRegistration{kSpec};

}  // namespace
}  // namespace crosscheck::cli
