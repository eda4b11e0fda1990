// gen_sdks_accept_test.cpp: generated valid instances of every root of the real schema bundle are
// accepted by the real SDKs exactly as by the C++ decoder: no error, no warning (the C++ decoder
// reports none for a valid instance), and no divergence of any class (round trips included).
//
// The SDKs run behind their adapters from adapters/default.json through ImplementationSet (the
// C++ decoder joins in process). Python is required (./setup install creates .venv): its absence
// fails the test. The Rust adapter is built by ./setup too; when its binary is missing that test
// is reported as skipped with the reason, never as passed.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "exec/adapter_config.hpp"
#include "exec/implementation_set.hpp"
#include "gen/generator.hpp"
#include "json/write.hpp"
#include "schema/loader.hpp"

namespace crosscheck::gen {
namespace {

constexpr std::uint64_t kSeedsPerRoot = 20;

class GeneratedInstancesInSdks : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto path = schema::default_schema_path();
    if (!path) {
      error_ = "no schema bundle recorded (.deps/schema-path): run ./setup install";
      return;
    }
    auto loaded = schema::load_schema(*path);
    if (!loaded.ok()) {
      error_ = "loading " + *path + " failed: " + loaded.error().message() + " (run ./setup install)";
      return;
    }
    ir_ = std::make_shared<const schema::Ir>(std::move(loaded).value());
  }
  static void TearDownTestSuite() { ir_.reset(); }

  /// The adapter's configuration from adapters/default.json (fails the test when it is not there).
  static exec::AdapterConfig adapter(const std::string& name) {
    auto all = exec::load_adapter_config(exec::default_adapter_config_path(), exec::repository_root());
    EXPECT_TRUE(all.ok()) << (all.ok() ? "" : all.error());
    if (all.ok()) {
      for (const auto& a : all.value()) {
        if (a.spec.name == name) return a;
      }
    }
    ADD_FAILURE() << "adapters/default.json has no adapter named " << name;
    return {};
  }

  /// Sends kSeedsPerRoot valid instances of every root to `config` and the C++ decoder; every one
  /// must be accepted with no diagnostic by both, with no divergence.
  void expect_accepted_clean(const exec::AdapterConfig& config) {
    ASSERT_TRUE(ir_) << error_;
    exec::ImplementationSet impls(ir_, {config}, exec::PoolOptions{});
    for (const auto& f : impls.failures()) {
      FAIL() << "the " << f.adapter << " adapter did not start: " << f.message << "\n(build it with "
             << config.build << ", or run ./setup install)";
    }
    ValueGenerator generator(*ir_);
    std::vector<exec::DecodeRequest> batch;
    std::vector<std::uint64_t> seeds;
    for (const auto& root : ir_->roots) {
      for (std::uint64_t seed = 0; seed < kSeedsPerRoot; ++seed) {
        GenReport report;
        const json::Value value = generator.valid(root, seed, &report);
        ASSERT_TRUE(report.accepted) << root.snake_name << " seed " << seed << ": no valid instance";
        batch.push_back({root.snake_name, json::write(value)});
        seeds.push_back(seed);
      }
    }
    const auto results = impls.run(batch);
    ASSERT_EQ(results.size(), batch.size());
    std::size_t clean = 0;
    for (std::size_t k = 0; k < results.size(); ++k) {
      const auto& p = results[k];
      std::string context = p.root + " seed " + std::to_string(seeds[k]) + ": " + p.input.substr(0, 1500);
      ASSERT_EQ(p.results.size(), 2u) << context;
      bool ok = true;
      for (const auto& r : p.results) {
        std::string said = r.implementation + " said " + core::outcome_name(r.outcome);
        for (const auto& d : r.diagnostics) said += " [" + d.path + " " + d.code + " " + d.severity + "]";
        if (r.message) said += " (" + *r.message + ")";
        EXPECT_EQ(r.outcome, core::Outcome::kAccepted) << said << "\n" << context;
        EXPECT_TRUE(r.diagnostics.empty()) << said << "\n" << context;
        ok = ok && r.outcome == core::Outcome::kAccepted && r.diagnostics.empty();
      }
      for (const auto& d : p.divergences) {
        ADD_FAILURE() << core::class_name(d.cls) << ": " << d.detail << "\n" << context;
        ok = false;
      }
      clean += ok;
    }
    std::cout << "[sdk-accept] " << config.spec.name << ": " << clean << "/" << results.size()
              << " generated valid instances (" << ir_->roots.size() << " roots x " << kSeedsPerRoot
              << " seeds) accepted clean, as by the C++ decoder\n";
  }

  static std::shared_ptr<const schema::Ir> ir_;
  static std::string error_;
};

std::shared_ptr<const schema::Ir> GeneratedInstancesInSdks::ir_;
std::string GeneratedInstancesInSdks::error_;

TEST_F(GeneratedInstancesInSdks, AcceptedCleanByPythonSdk) {
  const exec::AdapterConfig python = adapter("python");
  ASSERT_FALSE(python.unavailable.has_value())
      << "the Python SDK adapter is unavailable: " << *python.unavailable << " (run ./setup install)";
  expect_accepted_clean(python);
}

TEST_F(GeneratedInstancesInSdks, AcceptedCleanByRustSdk) {
  const exec::AdapterConfig rust = adapter("rust");
  if (rust.unavailable)
    GTEST_SKIP() << "the Rust adapter is not built (" << *rust.unavailable << "): " << rust.build;
  expect_accepted_clean(rust);
}

}  // namespace
}  // namespace crosscheck::gen
