// command_validate.cpp: `crosscheck validate`, the C++ reference canonical validator on one payload.
#include <iostream>
#include <string>

#include "canonical/canonical_validator.hpp"
#include "cli/command.hpp"
#include "cli/payload_input.hpp"
#include "cli/schema_option.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

const CommandSpec kSpec{
    "validate",
    "Validate one payload canonically (full JSON Schema 2020-12 of an AHP document) and print the verdict",
    "  crosscheck validate --document intercept-request payload.json\n"
    "  echo '{\"type\":\"allow\"}' | crosscheck validate --document effect -\n"
    "  crosscheck validate --document registration --schema schemas/draft payload.json\n"
    "Prints {\"outcome\":\"valid\"|\"invalid\",\"errors\":[{\"path\",\"keyword\",\"message\"}],\n"
    "\"implementationDefined\":[trait...]} (docs/canonical.md).\n"
    "Exit status: 0 valid, 1 invalid, 2 usage, schema or input error.\n",
    [](CLI::App& sub) -> std::function<int()> {
      auto document = std::make_shared<std::string>();
      auto schema_path = std::make_shared<std::string>();
      auto file = std::make_shared<std::string>();
      sub.add_option(
             "--document", *document,
             "Schema document to validate against, as the SDKs name it (intercept-request, registration)")
          ->required();
      sub.add_option(
          "--schema", *schema_path,
          "Schema directory, manifest.json or SDK schemas.json bundle (default: the installed bundle)");
      sub.add_option("file", *file, "Payload file, or - for standard input")->required();
      return [document, schema_path, file]() -> int {
        schema::Ir ir = load_ir_or_fail(*schema_path);
        auto validator = canonical::CanonicalValidator::from_ir(ir);
        if (!validator.ok()) throw Fatal(validator.error().text());
        if (!validator->knows(*document)) {
          std::string known;
          for (const auto& name : validator->documents()) known += (known.empty() ? "" : ", ") + name;
          throw Fatal("unknown document " + *document + "; known documents: " + known);
        }
        std::string bytes = read_payload_or_fail(*file);
        json::Validation result = *validator->validate(*document, bytes);
        std::cout << canonical::render(result) << "\n" << std::flush;
        return result.valid ? kExitClean : kExitDivergence;
      };
    }};

const Registration kRegistration{kSpec};

}  // namespace
}  // namespace crosscheck::cli
