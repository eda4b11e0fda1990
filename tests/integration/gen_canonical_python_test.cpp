// gen_canonical_python_test.cpp: the C++ reference validator against the Python SDK's validator
// (agenthooksprotocol.runtime.Validator, jsonschema with its format checker) on layer-2 generation:
// generated valid instances of every document and the output of every canonical mutation family.
// Every disagreement is printed; each one must fall under a known, explained difference (below),
// otherwise the test fails with the payload.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "canonical/canonical_validator.hpp"
#include "gen/canonical_generator.hpp"
#include "json/write.hpp"
#include "python_validator.hpp"
#include "schema/loader.hpp"

namespace crosscheck::gen {
namespace {

namespace fs = std::filesystem;
const std::string kSource = CROSSCHECK_SOURCE_DIR;
const std::string kPython = kSource + "/.venv/bin/python";

struct Payload {
  std::string document, bytes, what;  ///< what: "valid instance" or the mutant's description
  bool cpp_valid = false;
  std::vector<std::string> traits;
  /// "valid"; "invalid" (its schema check); "codec" (its schema check passed, the generated parse that
  /// Validator.validate also runs refused it); "unsupported" (no generated codec for the document)
  std::string python;
};

/// Python's verdict on every payload, one interpreter for all.
void ask_python(std::vector<Payload>& list) {
  std::vector<std::pair<std::string, std::string>> payloads;
  for (const Payload& p : list) payloads.emplace_back(p.document, p.bytes);
  const std::vector<std::string> verdicts = testing::python_validator_verdicts(
      kPython, fs::path(CROSSCHECK_BINARY_DIR) / "test-out" / "gen_canonical_python", payloads);
  ASSERT_EQ(verdicts.size(), list.size()) << "the Python validator script failed or stopped early";
  for (std::size_t i = 0; i < list.size(); ++i) list[i].python = verdicts[i];
}

bool has_trait(const Payload& p, const std::string& t) {
  return std::find(p.traits.begin(), p.traits.end(), t) != p.traits.end();
}

/// Why the two validators may disagree on `p`, or "" when they must not (docs/canonical.md,
/// "Agreement with the Python SDK").
std::string known_difference(const Payload& p) {
  const bool python_valid = p.python == "valid" || p.python == "codec";
  // jsonschema's date-time checker (rfc3339-validator) refuses second 60 and year 0000, which
  // RFC 3339 allows; the reference marks both as implementation-defined.
  if (p.cpp_valid && !python_valid &&
      (has_trait(p, "date-time-leap-second") || has_trait(p, "date-time-year-zero")))
    return "Python refuses leap seconds and year 0000";
  // Python's `$` also matches before a final newline.
  if (!p.cpp_valid && python_valid && p.what.find("final newline") != std::string::npos)
    return "Python's re: $ matches before a final newline";
  // json.loads keeps a lone surrogate, and the reference marks it.
  if (has_trait(p, "string-lone-surrogate")) return "a lone surrogate (implementation-defined)";
  // Python compares numbers as floats after json.loads.
  if (has_trait(p, "minimum-big-number") || has_trait(p, "integer-big-number") ||
      has_trait(p, "equality-big-number"))
    return "numbers beyond a double (implementation-defined)";
  return "";
}

TEST(GenCanonicalPython, ReferenceAgreesWithThePythonSdkOnGeneratedInstancesAndEveryFamily) {
  ASSERT_TRUE(fs::exists(kPython)) << "the SDK venv is missing (" << kPython << "): run ./setup install";
  std::optional<std::string> path = schema::default_schema_path();
  ASSERT_TRUE(path) << "no schema bundle installed: run ./setup install";
  auto ir = schema::load_schema(*path);
  ASSERT_TRUE(ir.ok()) << ir.error().message();
  auto loaded = canonical::CanonicalValidator::from_ir(ir.value());
  ASSERT_TRUE(loaded.ok()) << loaded.error().text();
  const canonical::CanonicalValidator& validator = loaded.value();
  const CanonicalGenerator generator(validator);

  std::vector<Payload> list;
  std::map<std::string, std::size_t> per_family;
  for (const std::string& document : generator.documents()) {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
      const json::Value v = *generator.valid(document, seed);
      list.push_back({document, json::write(v), "valid instance", false, {}, ""});
      for (Mutation m : canonical_mutations()) {
        if (auto mutant = generator.mutate(document, v, m, seed)) {
          list.push_back({document,
                          mutant->bytes,
                          std::string(mutation_name(m)) + ": " + mutant->description,
                          false,
                          {},
                          ""});
          ++per_family[mutation_name(m)];
        }
      }
    }
  }
  for (Mutation m : canonical_mutations()) EXPECT_GT(per_family[mutation_name(m)], 0u) << mutation_name(m);
  for (Payload& p : list) {
    auto r = validator.validate(p.document, p.bytes);
    p.cpp_valid = r->valid;
    p.traits = r->implementation_defined;
  }
  ask_python(list);

  std::size_t compared = 0, agreed = 0, explained = 0, unsupported = 0, codec_refusals = 0;
  for (const Payload& p : list) {
    if (p.python == "unsupported") {
      ++unsupported;
      continue;
    }
    ++compared;
    // The schema checks are compared. Validator.validate also runs the generated structural parse
    // (its layer-2 verdict is "canonical and structural", docs/protocol.md); "codec" means the
    // schema check passed and that parse refused: counted and printed, as the split between the
    // layers (or an SDK's layer-inconsistency), not as a disagreement of the schema checks.
    const bool python_schema_valid = p.python == "valid" || p.python == "codec";
    if (p.cpp_valid == python_schema_valid) {
      ++agreed;
      if (p.python == "codec") {
        ++codec_refusals;
        std::cout << "[ codec ] " << p.document << " " << p.what
                  << ": schema-valid, refused by Python's generated parse\n";
      }
      continue;
    }
    const std::string why = known_difference(p);
    std::cout << "[ disagree ] " << p.document << " " << p.what << ": C++ "
              << (p.cpp_valid ? "valid" : "invalid") << ", Python " << p.python
              << (why.empty() ? " UNEXPLAINED" : " (" + why + ")") << "\n";
    if (!why.empty()) {
      ++explained;
    } else {
      ADD_FAILURE() << "unexplained disagreement on " << p.document << " (" << p.what << "): C++ "
                    << (p.cpp_valid ? "valid" : "invalid") << ", Python " << p.python << "\n"
                    << p.bytes.substr(0, 600);
    }
    // A generated valid instance is never implementation-defined, so it must agree outright.
    EXPECT_NE(p.what, "valid instance") << p.document << " " << p.bytes.substr(0, 600);
  }
  std::cout << "[ canonical/python ] " << list.size() << " payloads, " << compared << " compared, " << agreed
            << " agree (" << codec_refusals << " of them refused by Python's generated parse), " << explained
            << " explained differences, " << unsupported << " on documents Python does not validate\n";
  EXPECT_GT(compared, list.size() / 2);
}

}  // namespace
}  // namespace crosscheck::gen
