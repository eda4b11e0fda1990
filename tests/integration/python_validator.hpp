// python_validator.hpp: the Python SDK's own canonical verdict (agenthooksprotocol.runtime.Validator,
// jsonschema with its format checker) on many payloads, asked of one interpreter, for the tests that
// compare the C++ reference validator with it. Header-only: two test files use it.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "util/base64.hpp"

namespace crosscheck::testing {

/// One verdict per (document, bytes), in order: "valid"; "codec" (the JSON Schema held but the
/// generated codec that Validator.validate also runs refused it); "unsupported" (no generated codec
/// for the document); "invalid". Empty when the interpreter failed (the caller asserts the size).
inline std::vector<std::string> python_validator_verdicts(
    const std::string& python, const std::filesystem::path& dir,
    const std::vector<std::pair<std::string, std::string>>& payloads) {
  std::filesystem::create_directories(dir);
  std::ofstream inputs(dir / "inputs.txt");
  // Document names have no spaces; base64 has none either.
  for (const auto& [document, bytes] : payloads) inputs << document << " " << base64_encode(bytes) << "\n";
  inputs.close();
  std::ofstream(dir / "validate.py") << R"(import base64, json, sys
from agenthooksprotocol.runtime import Validator
validator = Validator()
for line in open(sys.argv[1]):
    document, data = line.split()
    try:
        validator.validate(document, json.loads(base64.b64decode(data)))
        print("valid")
    except Exception as error:
        message = str(error)
        if message.startswith("Generated codec unavailable"):
            print("unsupported")
        elif message.startswith("Generated codec rejected"):
            print("codec")
        else:
            print("invalid")
)";
  const std::string command = "'" + python + "' '" + (dir / "validate.py").string() + "' '" +
                              (dir / "inputs.txt").string() + "' > '" + (dir / "verdicts.txt").string() + "'";
  if (std::system(command.c_str()) != 0) return {};
  std::ifstream in(dir / "verdicts.txt");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace crosscheck::testing
