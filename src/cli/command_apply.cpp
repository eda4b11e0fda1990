// command_apply.cpp: `crosscheck apply`, the C++ reference host (src/layers/contextual/host) on one request
// and one response (docs/host.md).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "canonical/canonical_validator.hpp"
#include "cli/command.hpp"
#include "cli/schema_option.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/contextual/host/host.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

json::Value read_json(const std::string& option, const std::string& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) throw Fatal(option + " " + file + ": it is a directory");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Fatal(option + " " + file + ": cannot read the file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  auto parsed = json::parse(bytes.str());
  if (!parsed.ok()) throw Fatal(option + " " + file + ": not JSON: " + parsed.error().message());
  if (!parsed.value().is_object())
    throw Fatal(option + " " + file + ": field '' (the document): expected a JSON-RPC envelope object");
  return std::move(parsed.value());
}

const CommandSpec kSpec{
    "apply", "Layer 3 reference host: admit and compose one hooks/intercept response for its request",
    "  crosscheck apply --request request.json --response response.json\n"
    "  crosscheck apply --request request.json --response response.json --schema schemas/draft\n"
    "Prints {\"accepted\":bool,\"actual\":{...},\"rule\":NAME|null,\"message\":TEXT|null} on one line: "
    "actual\n"
    "is the application result the SDK interop clients report (decision, executed, input, messages,\n"
    "result, flow, continuationInstructions, continuationRemaining, injections), or {\"rejected\":true};\n"
    "rule is the host rule the response breaks (docs/host.md). A response the synthetic host's tool\n"
    "contract refuses after SDK acceptance adds \"hostAccepted\":false.\n"
    "Exit status: 0 accepted, 1 rejected, 2 bad input (the file and field), or a request that is\n"
    "not canonical.\n",
    [](CLI::App& sub) -> std::function<int()> {
      auto request_file = std::make_shared<std::string>();
      auto response_file = std::make_shared<std::string>();
      auto schema_path = std::make_shared<std::string>();
      sub.add_option("--request", *request_file, "The pending hooks/intercept request envelope (JSON file)")
          ->required();
      sub.add_option("--response", *response_file, "The response envelope to admit (JSON file)")->required();
      sub.add_option(
          "--schema", *schema_path,
          "Schema directory, manifest.json or SDK schemas.json bundle (default: the installed bundle)");
      return [request_file, response_file, schema_path]() -> int {
        json::Value request = read_json("--request", *request_file);
        json::Value response = read_json("--response", *response_file);
        schema::Ir ir = load_ir_or_fail(*schema_path);
        auto validator = canonical::CanonicalValidator::from_ir(ir);
        if (!validator.ok()) throw Fatal(validator.error().text());
        for (const char* document : {"intercept-request", "intercept-response"})
          if (!validator->knows(document))
            throw Fatal(std::string("the schema has no ") + document + " document");
        host::Applied a = host::apply(validator.value(), request, response);
        if (a.rule == host::kRequestCanonical) throw Fatal("--request " + *request_file + ": " + a.message);
        bool accepted = a.accepted && a.host_accepted;
        json::Value out = json::Value::object();
        out.add("accepted", json::Value::boolean(accepted));
        out.add("actual", a.result);
        out.add("rule", a.rule.empty() ? json::Value::null() : json::Value::string(a.rule));
        out.add("message", a.message.empty() ? json::Value::null() : json::Value::string(a.message));
        if (!a.host_accepted) out.add("hostAccepted", json::Value::boolean(false));
        std::cout << json::write(out) << "\n" << std::flush;
        return accepted ? kExitClean : kExitDivergence;
      };
    }};

const Registration kRegistration{kSpec};

}  // namespace
}  // namespace crosscheck::cli
