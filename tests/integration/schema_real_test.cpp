// schema_real_test.cpp: the loader on the installed Python SDK's bundle, checked against the SDK.
//
// The SDK embeds the generator's IR for every named type (agenthooksprotocol.generated._SCHEMAS);
// each root's lowered shape must equal it structurally: kinds, properties and required flags,
// forbidden sets, additional members, enum and literal values, integer bounds, union modes and
// discriminators. Non-root types are named differently (the bundle carries no stableNames), so refs
// are compared by resolving them on both sides.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_set>

#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "schema/loader.hpp"
#include "schema/sha256.hpp"

namespace fs = std::filesystem;
using namespace crosscheck;
using namespace crosscheck::schema;

namespace {

const std::string kPython = std::string(CROSSCHECK_SOURCE_DIR) + "/.venv/bin/python";

fs::path temp_dir() {
  fs::path dir = fs::temp_directory_path() / ("crosscheck-schema-real-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// Runs a Python snippet in the SDK's venv; its stdout, or a test failure.
std::string run_python(const std::string& code) {
  const fs::path dir = temp_dir();
  const fs::path script = dir / "snippet.py", output = dir / "stdout.txt";
  std::ofstream(script) << code;
  const std::string command = "'" + kPython + "' '" + script.string() + "' > '" + output.string() + "'";
  const int status = std::system(command.c_str());
  EXPECT_EQ(status, 0) << "python failed: " << command;
  return slurp(output);
}

class RealSchema : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto path = default_schema_path();
    if (!path || !fs::exists(kPython)) return;
    auto loaded = load_schema(*path);
    if (loaded) {
      ir_ = new Ir(std::move(loaded).value());
    } else {
      error_ = loaded.error().message();
    }
  }
  static void TearDownTestSuite() {
    delete ir_;
    ir_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kPython)) << "the SDK venv is missing (" << kPython << "): run ./setup install";
    ASSERT_TRUE(default_schema_path().has_value()) << "no schema path: run ./setup install";
    ASSERT_NE(ir_, nullptr) << "loading the installed bundle failed: " << error_;
  }
  static Ir* ir_;
  static std::string error_;
};
Ir* RealSchema::ir_ = nullptr;
std::string RealSchema::error_;

TEST_F(RealSchema, BundleAndLockVerified) {
  const Ir& ir = *ir_;
  EXPECT_EQ(ir.origin, "bundle");
  EXPECT_EQ(ir.schema_revision, "draft");
  ASSERT_TRUE(ir.lock.has_value());
  // Independent of the loader: every document's recomputed hash is the lock's.
  const json::Value& lock = *ir.lock;
  ASSERT_NE(lock.find("documents"), nullptr);
  const auto& entries = lock.find("documents")->items();
  ASSERT_EQ(entries.size(), ir.documents.size());
  for (const json::Value& entry : entries) {
    const std::string& path = entry.find("path")->string_value();
    auto it = std::find_if(ir.documents.begin(), ir.documents.end(),
                           [&](const Document& d) { return d.path == path; });
    ASSERT_NE(it, ir.documents.end()) << path;
    EXPECT_EQ(sha256_hex(json::write_python_indent2(it->body)), entry.find("sha256")->string_value()) << path;
  }
  EXPECT_EQ(ir.manifest_sha256, lock.find("schemaManifestSha256")->string_value());
  EXPECT_EQ(ir.roots.size(), 31u);
}

TEST_F(RealSchema, TamperedBundleFailsTheLock) {
  const fs::path dir = temp_dir() / "tampered";
  fs::create_directories(dir);
  const std::string bundle_path = *default_schema_path();
  auto bundle = json::parse(slurp(bundle_path));
  ASSERT_TRUE(bundle.ok());
  json::Value documents = std::move(bundle).value();
  // Change one description in event.schema.json: the lock must catch it.
  std::string changed;
  for (json::Value& doc : documents.items()) {
    if (doc.find("$id")->string_value().ends_with("/event.schema.json")) {
      doc.add("description", json::Value::string("tampered"));
      changed = "schema/draft/event.schema.json";
    }
  }
  ASSERT_FALSE(changed.empty());
  std::ofstream(dir / "schemas.json") << json::write(documents);
  fs::copy_file(fs::path(bundle_path).parent_path() / "ahp-codegen.lock.json", dir / "ahp-codegen.lock.json",
                fs::copy_options::overwrite_existing);
  auto loaded = load_schema((dir / "schemas.json").string());
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().document, changed);
  EXPECT_EQ(loaded.error().pointer, "");
  EXPECT_NE(loaded.error().expected.find("ahp-codegen.lock.json"), std::string::npos)
      << loaded.error().message();
}

TEST_F(RealSchema, RootNamesAreTheSdkParseFunctions) {
  std::string out = run_python(
      "import agenthooksprotocol.generated as g\n"
      "for n in sorted(x for x in dir(g) if x.startswith('parse_') and callable(getattr(g, x))):\n"
      "    print(n[len('parse_'):])\n");
  std::set<std::string> sdk;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) sdk.insert(line);
  }
  std::set<std::string> ours;
  for (const Root& root : ir_->roots) ours.insert(root.snake_name);
  EXPECT_EQ(sdk.size(), 31u);
  EXPECT_EQ(ours, sdk);
}

/// Structural comparison of our shapes with the SDK's descriptors.
class Comparer {
 public:
  Comparer(const Ir& ir, const json::Value& sdk) : ir_(ir), sdk_(sdk) {}
  std::vector<std::string> mismatches;

  void compare(const Shape* a, const json::Value* b, const std::string& path) {
    // Resolve refs on both sides; a pair of refs under comparison is assumed equal (recursion).
    for (int guard = 0; guard < 100; ++guard) {
      const bool a_ref = a->kind == ShapeKind::kRef, b_ref = kind(*b) == "ref";
      if (!a_ref && !b_ref) break;
      if (a_ref && b_ref && !seen_.insert({a->ref, b->find("name")->string_value()}).second) return;
      if (a_ref) {
        const NamedType* type = ir_.find_type(a->ref);
        if (!type) return report(path, "unknown type " + a->ref);
        a = type->shape.get();
      }
      if (b_ref) {
        const std::string name = b->find("name")->string_value();
        b = sdk_.find(name);
        if (!b) return report(path, "SDK has no type " + name);
      }
    }
    const std::string ours = our_kind(*a), theirs = kind(*b);
    if (ours != theirs) return report(path, "kind " + ours + " vs SDK " + theirs);
    if (ours == "literal" && !json::semantically_equal(a->literal, *b->find("value"))) {
      report(path, "literal " + json::write(a->literal) + " vs SDK " + json::write(*b->find("value")));
    } else if (ours == "enum") {
      const auto& values = b->find("values")->items();
      bool same =
          values.size() == a->enum_values.size() && a->open_strings == b->find("open_strings")->as_bool();
      for (std::size_t i = 0; same && i < values.size(); ++i)
        same = json::semantically_equal(a->enum_values[i], values[i]);
      if (!same) report(path, "enum values/open_strings differ");
    } else if (ours == "boundedInteger") {
      for (const char* bound : {"minimum", "maximum"}) {
        const auto& mine = std::string(bound) == "minimum" ? a->minimum : a->maximum;
        const json::Value* sdk = b->find(bound);
        if (mine.has_value() != (sdk != nullptr) ||
            (sdk && json::compare_numbers(*mine, sdk->number_text()) != 0)) {
          report(path, std::string("integer ") + bound + " differs");
        }
      }
    } else if (ours == "array") {
      compare(a->items.get(), b->find("items"), path + "/items");
    } else if (ours == "object") {
      compare_object(*a, *b, path);
    } else if (ours == "union" || ours == "intersection") {
      if (ours == "union") {
        const std::string mode = a->mode == UnionMode::kOneOf ? "oneOf" : "anyOf";
        if (mode != b->find("mode")->string_value()) report(path, "union mode " + mode);
        const json::Value* disc = b->find("discriminator");
        const std::string sdk_disc = disc ? disc->string_value() : "(none)";
        if (a->discriminator.value_or("(none)") != sdk_disc) {
          report(path, "discriminator " + a->discriminator.value_or("(none)") + " vs SDK " + sdk_disc);
        }
      }
      const auto& variants = b->find("variants")->items();
      if (variants.size() != a->variants.size()) {
        return report(path, ours + " of " + std::to_string(a->variants.size()) + " variants vs SDK " +
                                std::to_string(variants.size()));
      }
      for (std::size_t i = 0; i < variants.size(); ++i) {
        compare(a->variants[i].get(), &variants[i], path + "/" + std::to_string(i));
      }
    }
  }

 private:
  static std::string kind(const json::Value& v) { return v.find("kind")->string_value(); }
  static std::string our_kind(const Shape& s) {
    if (s.kind == ShapeKind::kInteger && (s.minimum || s.maximum)) return "boundedInteger";
    return shape_kind_name(s.kind);
  }
  void report(const std::string& path, const std::string& what) { mismatches.push_back(path + ": " + what); }

  void compare_object(const Shape& a, const json::Value& b, const std::string& path) {
    const auto& props = b.find("properties")->items();
    std::string mine, theirs;
    for (const Property& p : a.properties) mine += p.wire_name + (p.required ? "! " : " ");
    for (const json::Value& p : props) {
      theirs += p.find("wire_name")->string_value() + (p.find("required")->as_bool() ? "! " : " ");
    }
    if (mine != theirs) return report(path, "properties [" + mine + "] vs SDK [" + theirs + "]");
    std::vector<std::vector<std::string>> sets;
    for (const json::Value& set : b.find("forbidden_property_sets")->items()) {
      sets.emplace_back();
      for (const json::Value& name : set.items()) sets.back().push_back(name.string_value());
    }
    if (sets != a.forbidden_property_sets) report(path, "forbidden_property_sets differ");
    const json::Value& additional = *b.find("additional");
    const std::string add = kind(additional);
    const std::string our_add = a.additional_shape ? "typed" : a.additional_allowed ? "allowed" : "forbidden";
    if (add != our_add) {
      report(path, "additional " + our_add + " vs SDK " + add);
    } else if (add == "typed") {
      compare(a.additional_shape.get(), additional.find("shape"), path + "/*");
    }
    for (std::size_t i = 0; i < props.size(); ++i) {
      compare(a.properties[i].shape.get(), props[i].find("shape"), path + "/" + a.properties[i].wire_name);
    }
  }

  const Ir& ir_;
  const json::Value& sdk_;
  std::set<std::pair<std::string, std::string>> seen_;
};

TEST_F(RealSchema, LoweringEqualsTheSdkDescriptors) {
  const std::string dump = run_python(
      "import json, sys\n"
      "import agenthooksprotocol.generated as g\n"
      "json.dump(g._SCHEMAS, sys.stdout, default=float)\n");
  auto parsed = json::parse(dump);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  const json::Value& sdk = parsed.value();
  ASSERT_TRUE(sdk.is_object());
  EXPECT_GT(sdk.members().size(), 200u);  // the generator's named types
  Comparer comparer(*ir_, sdk);
  std::size_t compared = 0;
  for (const Root& root : ir_->roots) {
    const json::Value* descriptor = sdk.find(root.public_name);
    if (!descriptor) {
      ADD_FAILURE() << "the SDK has no descriptor named " << root.public_name;
      continue;
    }
    comparer.compare(ir_->root_shape(root).get(), descriptor, root.public_name);
    ++compared;
  }
  EXPECT_EQ(compared, 31u);
  std::string report;
  for (std::size_t i = 0; i < comparer.mismatches.size() && i < 60; ++i)
    report += comparer.mismatches[i] + "\n";
  EXPECT_TRUE(comparer.mismatches.empty()) << comparer.mismatches.size() << " mismatches:\n" << report;
}

TEST_F(RealSchema, IdsAreDenseAndSourcesResolve) {
  const Ir& ir = *ir_;
  std::set<std::uint32_t> ids;
  std::unordered_set<const Shape*> seen;
  std::size_t bad_sources = 0;
  std::function<void(const ShapePtr&)> walk = [&](const ShapePtr& s) {
    if (!s || !seen.insert(s.get()).second) return;
    ids.insert(s->id);
    const std::string doc = s->source.substr(0, s->source.find('#'));
    if (s->source.find('#') == std::string::npos ||
        std::none_of(ir.documents.begin(), ir.documents.end(),
                     [&](const Document& d) { return d.path == doc; })) {
      ++bad_sources;
    }
    walk(s->items);
    for (const Property& p : s->properties) walk(p.shape);
    walk(s->additional_shape);
    for (const ShapePtr& v : s->variants) walk(v);
  };
  for (const auto& [name, type] : ir.types) walk(type.shape);
  EXPECT_EQ(seen.size(), ir.node_count);
  EXPECT_EQ(ids.size(), ir.node_count);
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(*ids.rbegin(), ir.node_count - 1);
  EXPECT_EQ(bad_sources, 0u);
  EXPECT_EQ(ir.stats().nodes, ir.node_count);
}

TEST_F(RealSchema, ClosuresCoverReferencedDocuments) {
  const Root* request = ir_->find_root("intercept_request");
  ASSERT_NE(request, nullptr);
  EXPECT_EQ(request->public_name, "InterceptRequest");
  const auto& docs = request->closure_documents;
  EXPECT_TRUE(std::is_sorted(docs.begin(), docs.end()));
  for (const char* needed : {"schema/draft/intercept-request.schema.json", "schema/draft/event.schema.json",
                             "schema/draft/common.schema.json", "schema/draft/catalogue-event.schema.json"}) {
    EXPECT_NE(std::find(docs.begin(), docs.end(), needed), docs.end()) << needed;
  }
  std::string lines;
  for (const std::string& path : docs) {
    auto it = std::find_if(ir_->documents.begin(), ir_->documents.end(),
                           [&](const Document& d) { return d.path == path; });
    ASSERT_NE(it, ir_->documents.end());
    lines += path + " " + it->sha256 + "\n";
  }
  EXPECT_EQ(request->closure_hash, sha256_hex(lines));
  // A leaf root's closure is its own document only.
  const Root* receipt = ir_->find_root("content_upload_receipt");
  ASSERT_NE(receipt, nullptr);
  EXPECT_EQ(receipt->closure_documents,
            std::vector<std::string>{"schema/draft/content-upload-receipt.schema.json"});
}

}  // namespace

namespace {

struct CliRun {
  int status = -1;
  std::string out, err;
};

/// Runs build/crosscheck with `args` (already shell-quoted).
CliRun run_cli(const std::string& args) {
  const fs::path dir = temp_dir();
  const std::string binary = std::string(CROSSCHECK_BINARY_DIR) + "/crosscheck";
  EXPECT_TRUE(fs::exists(binary)) << binary << " is missing: build the crosscheck target";
  const std::string command =
      "'" + binary + "' " + args + " > '" + (dir / "out").string() + "' 2> '" + (dir / "err").string() + "'";
  CliRun run;
  const int raw = std::system(command.c_str());
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  run.out = slurp(dir / "out");
  run.err = slurp(dir / "err");
  return run;
}

TEST_F(RealSchema, CliShowsTheInstalledBundle) {
  CliRun run = run_cli("schema");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("origin     bundle (" + std::to_string(ir_->documents.size()) +
                         " documents, sha256 verified against ahp-codegen.lock.json)"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("manifest   " + ir_->manifest_sha256), std::string::npos);
  EXPECT_NE(run.out.find("roots (31)"), std::string::npos);
  const Root* request = ir_->find_root("intercept_request");
  ASSERT_NE(request, nullptr);
  EXPECT_NE(run.out.find(request->closure_hash.substr(0, 12)), std::string::npos);
  EXPECT_NE(run.out.find(std::to_string(ir_->node_count) + " nodes"), std::string::npos);
}

TEST_F(RealSchema, CliEmitIrIsTheIrAsJson) {
  CliRun run = run_cli("schema --emit-ir");
  ASSERT_EQ(run.status, 0) << run.err;
  auto parsed = json::parse(run.out);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_TRUE(json::semantically_equal(parsed.value(), ir_->to_json()));
  EXPECT_EQ(parsed.value().find("roots")->items().size(), 31u);
}

TEST(SchemaCli, SchemaErrorsExitTwoNamingDocumentAndPointer) {
  const std::string data = std::string(CROSSCHECK_TEST_SCHEMAS) + "/";
  CliRun run = run_cli("schema --schema '" + data + "pattern-properties'");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(
      run.err,
      "ERROR: schema/draft/a.schema.json#/patternProperties: expected a keyword the IR can express, not "
      "\"patternProperties\"\n");
  EXPECT_EQ(run.out, "");
  run = run_cli("schema --schema '" + data + "mini' --names-from '" + data + "nope.json'");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ERROR: " + data + "nope.json#: expected a readable file at " + data + "nope.json\n");
}

TEST(SchemaCli, ManifestDirectoryWithStableNames) {
  const std::string data = std::string(CROSSCHECK_TEST_SCHEMAS) + "/";
  CliRun run = run_cli("schema --schema '" + data + "mini'");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("origin     manifest (4 documents, sha256 verified against the manifest)"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("mini_request  MiniRequest"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("8 types, 3 roots"), std::string::npos) << run.out;
}

}  // namespace
