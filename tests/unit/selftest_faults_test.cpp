// selftest_faults_test.cpp: the shipped faults table (selftest/faults.json) covers the contract areas
// of the self-test with real witnesses, and a broken table is refused with the file, entry and field named.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "canonical/canonical_validator.hpp"
#include "core/divergence.hpp"
#include "decoder/decoder.hpp"
#include "gen_test_support.hpp"
#include "layers/structural/input_traits.hpp"
#include "schema/loader.hpp"
#include "selftest/selftest.hpp"

namespace crosscheck::selftest {
namespace {

namespace fs = std::filesystem;

std::vector<Fault> shipped() {
  auto table = load_faults(selftest_dir() + "/faults.json");
  EXPECT_TRUE(table.ok()) << (table.ok() ? "" : table.error());
  return table.ok() ? table.value() : std::vector<Fault>{};
}

TEST(SelftestFaults, ShippedTableCoversEveryContractArea) {
  auto faults = shipped();
  EXPECT_GE(faults.size(), 12u);
  std::set<std::string> names, areas;
  for (const auto& f : faults) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    areas.insert(f.area);
    EXPECT_TRUE(core::parse_class(f.expected_class).has_value()) << f.name;
    EXPECT_FALSE(f.description.empty()) << f.name;
  }
  for (const char* area :
       {"preserving unknown members", "open enums", "unknown tags", "forbidden properties", "absent vs null",
        "exact union selection", "integer range and precision", "string escapes and code points",
        "number handling in opaque values", "warning paths", "encode failures",
        "crashes on particular shapes", "hangs on particular shapes"}) {
    EXPECT_TRUE(areas.count(area)) << "no fault for " << area;
  }
}

// The witness must sit on the reference's side of the fault: what the faulty adapter changes is
// what the reference decoder does on it (accepts it, warns, rejects it, or encodes it).
TEST(SelftestFaults, WitnessesAreRootsOfTheRealSchemaAndDecodeAsTheFaultNeeds) {
  const auto& real = gen::testing::real_schema();
  ASSERT_TRUE(real.ir) << real.error;
  decoder::Decoder decoder(*real.ir);
  for (const auto& f : shipped()) {
    if (f.layer != "structural") continue;  // layer 2: the next test
    const schema::Root* root = real.ir->find_root(f.witness_root);
    ASSERT_NE(root, nullptr) << f.name << ": " << f.witness_root;
    auto r = decoder.decode(*root, f.witness_payload);
    bool warned = false;
    for (const auto& d : r.diagnostics) warned = warned || d.severity == decoder::Severity::kWarning;
    if (f.expected_class == "round-trip-self" || f.name == "integral-decimal-rejected" ||
        f.name == "null-as-absent") {
      EXPECT_TRUE(r.accepted) << f.name;
    }
    if (f.expected_class == "warnings" || f.name == "unknown-enum-error" ||
        f.name == "unknown-variant-error") {
      EXPECT_TRUE(r.accepted && warned) << f.name;
    }
    if (f.expected_class == "diagnostics" || f.name == "forbidden-null-accepted" ||
        f.name == "ambiguous-union-accepted" || f.name == "big-integer-accepted") {
      EXPECT_FALSE(r.accepted) << f.name;
    }
    // A witness is a contract input: no implementation-defined trait may excuse its divergence. A big
    // number is free only in an opaque position; one that the reference's error points at is typed.
    auto traits = layers::structural::analyse_input(f.witness_payload);
    for (const auto& d : r.diagnostics) {
      for (const auto& p : traits.big_number_paths) {
        if (d.severity == decoder::Severity::kError && d.path == p)
          traits.big_integer = traits.huge_exponent = false;
      }
    }
    EXPECT_FALSE(traits.any()) << f.name << ": " << (traits.names().empty() ? "" : traits.names().front());
  }
}

// A layer-2 witness is validated as its root's schema document: the reference must be on its side
// of the fault (invalid through the one keyword the fault skips, or valid where the fault refuses),
// with no implementation-defined trait to excuse the divergence.
TEST(SelftestFaults, CanonicalWitnessesAreDocumentsTheReferenceJudgesAsTheFaultNeeds) {
  const auto& real = gen::testing::real_schema();
  ASSERT_TRUE(real.ir) << real.error;
  const auto& validator = gen::testing::real_validator();
  const std::map<std::string, std::string> skipped_keyword = {
      {"parse-only", "minLength"},
      {"format-ignored", "format"},
      {"closed-objects-open", "additionalProperties"}};
  std::set<std::string> seen;
  for (const auto& f : shipped()) {
    if (f.layer != "canonical") continue;
    seen.insert(f.name);
    EXPECT_EQ(f.expected_class, "canonical-acceptance") << f.name;
    if (!f.schema.empty()) {  // a fault of its own schema: utf16-length on a one-document bundle
      auto ir = schema::load_schema((fs::path(CROSSCHECK_SOURCE_DIR) / f.schema).string());
      ASSERT_TRUE(ir.ok()) << f.name << ": " << ir.error().message();
      auto own = canonical::CanonicalValidator::from_ir(ir.value());
      ASSERT_TRUE(own.ok()) << f.name;
      std::string document = canonical::root_document(ir.value(), f.witness_root);
      ASSERT_FALSE(document.empty()) << f.name << ": " << f.witness_root;
      auto v = own.value().validate(document, f.witness_payload);
      ASSERT_TRUE(v.has_value()) << f.name;
      // One astral character: one code point for maxLength 1 (valid), two UTF-16 units for the fault.
      EXPECT_EQ(f.name, "utf16-length");
      EXPECT_TRUE(v->valid) << f.name;
      EXPECT_TRUE(v->implementation_defined.empty()) << f.name;
      continue;
    }
    std::string document = canonical::root_document(*real.ir, f.witness_root);
    ASSERT_FALSE(document.empty()) << f.name << ": " << f.witness_root << " has no schema document";
    auto v = validator.validate(document, f.witness_payload);
    ASSERT_TRUE(v.has_value()) << f.name;
    EXPECT_TRUE(v->implementation_defined.empty()) << f.name << ": " << v->implementation_defined.front();
    if (f.name == "number-spelling-distinct") {
      EXPECT_TRUE(v->valid) << f.name;  // 1.0 is an integer; the fault says it is not
      continue;
    }
    auto keyword = skipped_keyword.find(f.name);
    ASSERT_NE(keyword, skipped_keyword.end()) << f.name << ": no expectation for this fault";
    ASSERT_FALSE(v->valid) << f.name;
    ASSERT_EQ(v->errors.size(), 1u) << f.name;
    EXPECT_EQ(v->errors.front().keyword, keyword->second) << f.name;
  }
  EXPECT_EQ(seen, (std::set<std::string>{"parse-only", "format-ignored", "closed-objects-open",
                                         "number-spelling-distinct", "utf16-length"}));
}

class BadTable : public ::testing::Test {
 protected:
  std::string write(const std::string& text) {
    path_ = (fs::temp_directory_path() / ("faults-" + std::to_string(::getpid()) + ".json")).string();
    std::ofstream(path_) << text;
    return path_;
  }
  void TearDown() override { fs::remove(path_); }
  std::string path_;
};

TEST_F(BadTable, NamesFileEntryAndField) {
  auto r =
      load_faults(write(R"({"faults":[{"name":"a","area":"x","description":"d","expectedClass":"acceptance",
      "witness":{"root":"effect","payload":"{}"}},{"name":"b","area":"x","description":"d",
      "expectedClass":"acceptance","witness":{"root":"effect"}}]})"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find(path_), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("at /faults/1/witness/payload"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("required field is missing"), std::string::npos) << r.error();
}

// schemas/selftest-faults.schema.json defines the table: an unknown field or a wrong type is refused
// with the JSON Pointer and what was expected.
TEST_F(BadTable, RefusesUnknownFieldsAndWrongTypes) {
  const std::string head = R"({"faults":[{"name":"a","area":"x","description":"d","expectedClass":"crash",)";
  auto unknown =
      load_faults(write(head + R"("witness":{"root":"effect","payload":"{}"},"expectedClas":"x"}]})"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find(path_ + ": at /faults/0/expectedClas"), std::string::npos)
      << unknown.error();
  EXPECT_NE(unknown.error().find("unknown field"), std::string::npos) << unknown.error();
  auto type = load_faults(
      write(head + R"("witness":{"root":"effect","payload":"{}"},"implementationDefined":"no"}]})"));
  ASSERT_FALSE(type.ok());
  EXPECT_NE(type.error().find("at /faults/0/implementationDefined"), std::string::npos) << type.error();
  EXPECT_NE(type.error().find("expected a boolean, got string"), std::string::npos) << type.error();
  auto layer =
      load_faults(write(head + R"("witness":{"root":"effect","payload":"{}"},"layer":"semantic"}]})"));
  ASSERT_FALSE(layer.ok());
  EXPECT_NE(layer.error().find("at /faults/0/layer"), std::string::npos) << layer.error();
  auto schema = load_faults(write(
      head + R"("witness":{"root":"effect","payload":"{}"},"schema":"tests/data/no-such.schemas.json"}]})"));
  ASSERT_FALSE(schema.ok());
  EXPECT_NE(schema.error().find(
                path_ + ": /faults/0: field 'schema': tests/data/no-such.schemas.json does not exist"),
            std::string::npos)
      << schema.error();
  auto format = load_faults(write(R"({"format":"crosscheck-faults/2","faults":[]})"));
  ASSERT_FALSE(format.ok());
  EXPECT_NE(format.error().find("at /format"), std::string::npos) << format.error();
}

TEST_F(BadTable, RefusesAnUnknownClassAndATwiceUsedName) {
  auto r =
      load_faults(write(R"({"faults":[{"name":"a","area":"x","description":"d","expectedClass":"wrongness",
      "witness":{"root":"effect","payload":"{}"}}]})"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("'wrongness' is not a divergence class"), std::string::npos) << r.error();
  std::string one = R"({"name":"a","area":"x","description":"d","expectedClass":"crash",
      "witness":{"root":"effect","payload":"{}"}})";
  r = load_faults(write(R"({"faults":[)" + one + "," + one + "]}"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("used twice"), std::string::npos) << r.error();
}

// Layer 3: one stand-in per composition rule of issue #14, each expected in a contextual class, on
// families the scenario generator has; a contextual entry needs families and has no witness.
TEST(SelftestFaults, ContextualFaultsCoverTheCompositionRules) {
  std::map<std::string, Fault> contextual;
  for (const auto& f : shipped())
    if (f.layer == kContextualLayer) contextual[f.name] = f;
  for (const char* name :
       {"deep-merge", "null-as-deletion", "ask-beats-deny", "return-anywhere", "unknown-effect-ignored",
        "continuation-per-effect", "candidate-kept", "messages-from-rejected"}) {
    ASSERT_TRUE(contextual.count(name)) << "no layer-3 fault " << name;
    const Fault& f = contextual[name];
    EXPECT_TRUE(f.expected_class == "contextual-result" || f.expected_class == "contextual-acceptance")
        << name << ": " << f.expected_class;
    EXPECT_FALSE(f.families.empty()) << name;
    EXPECT_TRUE(f.witness_root.empty() && f.witness_payload.empty()) << name;
  }
}

TEST_F(BadTable, RefusesAContextualFaultWithoutFamiliesOrWithAnUnknownOne) {
  const std::string head =
      R"({"faults":[{"name":"a","area":"x","description":"d","expectedClass":"contextual-result","layer":"contextual")";
  auto none = load_faults(write(head + "}]}"));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("families"), std::string::npos) << none.error();
  auto unknown = load_faults(write(head + R"(,"families":["no-such-family"]}]})"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("'no-such-family' is not a scenario generator family"), std::string::npos)
      << unknown.error();
  auto witness = load_faults(
      write(head + R"(,"families":["merge-values"],"witness":{"root":"effect","payload":"{}"}}]})"));
  EXPECT_FALSE(witness.ok());
  auto good = load_faults(write(head + R"(,"families":["merge-values"]}]})"));
  ASSERT_TRUE(good.ok()) << good.error();
  EXPECT_EQ(good.value().front().families, std::vector<std::string>{"merge-values"});
}

TEST_F(BadTable, RefusesWhatIsNotATable) {
  EXPECT_FALSE(load_faults(write("[1,2]")).ok());
  EXPECT_FALSE(load_faults(write("{\"faults\":")).ok());
  EXPECT_FALSE(load_faults(path_ + ".missing").ok());
}

}  // namespace
}  // namespace crosscheck::selftest
