// differential_prop_test.cpp: RapidCheck differential property between the real Python SDK (the
// `python` adapter of adapters/default.json, driven through exec::ImplementationSet) and the
// in-process C++ decoder, over schema-generated payloads of the real bundle.
//
// Property: a batch of payloads (valid instances, and mutants of every gen::Mutator family) gives no
// contract divergence between the two. Left out, each for a stated reason:
//  - divergences the comparator labels implementation-defined (duplicate keys, lone surrogates,
//    invalid UTF-8, deep nesting, big numbers in opaque positions...);
//  - known divergences: those an entry of the reviewed baseline tests/data/baseline/known.json
//    naming python covers (today all of them are the safe-integer rule: the contract rejects
//    integers beyond +-(2^53-1) in typed slots, agenthooksprotocol 0.10.1 does not). On a payload
//    with such numbers the entry excuses the divergence only when the rest agrees: Python's
//    diagnostics are all among the C++ decoder's, and the C++ decoder's others are errors at those
//    numbers or at the unions and variants holding them. Any other difference still fails.
// One case is one batch of 1-8 payloads (one pipelined adapter round trip); on failure RapidCheck
// shrinks the batch to the payload that diverges and toward small seeds, and the failure prints the
// root, the payload, each implementation's answer, a `crosscheck run` command over a copy of it,
// and (at exit) the RC_PARAMS reproduce string. The Python adapter must be installed (./setup
// install): without it the test fails saying so; it is never skipped.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "baseline/baseline.hpp"
#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "core/payload_results.hpp"
#include "exec/adapter_config.hpp"
#include "exec/adapter_pool.hpp"
#include "exec/implementation_set.hpp"
#include "gen/generator.hpp"
#include "json/write.hpp"
#include "layers/structural/input_traits.hpp"
#include "schema/sha256.hpp"
#include "tests/unit/gen_test_support.hpp"

namespace crosscheck::gen {
namespace {

constexpr std::size_t kMaxBatch = 8;       // payloads per case: one pipelined round trip each
constexpr std::size_t kMaxNesting = 1000;  // json::ParseLimits' default, the decoder's parser limit
const std::string kBaseline = std::string(CROSSCHECK_TEST_DATA) + "/baseline/known.json";

/// One payload to draw: a valid instance of a root, or a mutant of it (family -1 = unmutated).
struct Case {
  Case(std::size_t root, std::uint64_t seed, int family, std::uint64_t mutation_seed)
      : root(root), seed(seed), family(family), mutation_seed(mutation_seed) {}
  std::size_t root;
  std::uint64_t seed;
  int family;
  std::uint64_t mutation_seed;
};

/// How RapidCheck prints a case in a counterexample (found by argument-dependent lookup).
[[maybe_unused]] void showValue(const Case& c, std::ostream& os) {
  const auto& roots = testing::real_schema().ir->roots;
  os << "{root " << (c.root < roots.size() ? roots[c.root].snake_name : "?") << ", seed " << c.seed << ", "
     << (c.family < 0 ? std::string("valid")
                      : mutation_name(all_mutations()[static_cast<std::size_t>(c.family)]))
     << ", mutation seed " << c.mutation_seed << "}";
}

struct Env {
  const schema::Ir& ir;
  ValueGenerator generator;
  Mutator mutator;
  std::unique_ptr<exec::ImplementationSet> impls;
  std::string error;  // why the property cannot run (with the fix)
  explicit Env(const schema::Ir& ir) : ir(ir), generator(ir), mutator(ir) {}
};

/// The reviewed baseline of known SDK divergences (crosscheck-baseline/1), its entries that name
/// python; the error says why it could not be read.
struct Known {
  std::vector<baseline::Entry> entries;
  std::string error;
};

const Known& known() {
  static const Known loaded = [] {
    Known k;
    try {
      for (auto& e : baseline::load_baseline(kBaseline).entries) {
        if (baseline::names_implementation(e, "python")) k.entries.push_back(std::move(e));
      }
    } catch (const std::exception& e) {
      k.error = e.what();
    }
    return k;
  }();
  return loaded;
}

const Env& env() {
  static const std::unique_ptr<Env> instance = []() -> std::unique_ptr<Env> {
    const auto& real = testing::real_schema();
    if (!real.ir) return nullptr;
    auto e = std::make_unique<Env>(*real.ir);
    auto all = exec::load_adapter_config(exec::default_adapter_config_path(), exec::repository_root());
    if (!all.ok()) {
      e->error = all.error();
      return e;
    }
    auto selected = exec::select_adapters(all.value(), {"python"}, {});
    if (!selected.ok()) {
      e->error = selected.error();
      return e;
    }
    // The adapter's environment (PYTHONDONTWRITEBYTECODE) goes into this process's instead, which
    // the adapter inherits: Boost.Process's lookup of an added variable reads past environment
    // entries shorter than its name, and this test also runs in the ASan build of the unit tests.
    for (auto& config : selected.value()) {
      for (const auto& [key, value] : config.spec.env) ::setenv(key.c_str(), value.c_str(), 1);
      config.spec.env.clear();
    }
    // The IR outlives the set (a function-local static of the test support): no ownership here.
    std::shared_ptr<const schema::Ir> ir(real.ir.get(), [](const schema::Ir*) {});
    e->impls = std::make_unique<exec::ImplementationSet>(ir, selected.value(), exec::PoolOptions{});
    for (const auto& f : e->impls->failures())
      e->error += (e->error.empty() ? "" : "; ") + f.adapter + ": " + f.message;
    if (!e->error.empty()) {
      e->error = "the Python SDK adapter did not start (" + e->error +
                 "); run ./setup install (it creates .venv with agenthooksprotocol)";
      return e;
    }
    const auto names = e->impls->names();
    if (std::find(names.begin(), names.end(), "python") == names.end() ||
        std::find(names.begin(), names.end(), "cpp") == names.end())
      e->error = "expected the implementations cpp and python, got " + std::to_string(names.size());
    return e;
  }();
  if (!instance) RC_FAIL(testing::real_schema().error);
  if (!instance->error.empty()) RC_FAIL(instance->error);
  return *instance;
}

rc::Gen<Case> case_gen(std::size_t roots) {
  return rc::gen::construct<Case>(
      rc::gen::inRange<std::size_t>(0, roots),
      rc::gen::inRange<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max()),
      // A quarter valid instances (shrinking goes there first), the rest spread over the families.
      rc::gen::weightedOneOf<int>(
          {{1, rc::gen::just(-1)}, {3, rc::gen::inRange<int>(0, static_cast<int>(all_mutations().size()))}}),
      rc::gen::inRange<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max()));
}

using DiagSet = std::multiset<std::tuple<std::string, std::string, std::string>>;

DiagSet diagnostics_of(const core::ImplResult& r) {
  DiagSet out;
  for (const auto& d : r.diagnostics) out.emplace(d.path, d.code, d.severity);
  return out;
}

const core::ImplResult* result_of(const core::PayloadResults& p, const std::string& name) {
  for (const auto& r : p.results) {
    if (r.implementation == name) return &r;
  }
  return nullptr;
}

/// The safe-integer check (file comment): Python's diagnostics are all among the C++ decoder's, and
/// every one the C++ decoder has beyond them is an error at a big number of the input (at least one)
/// or a no_union_match / invalid_known_variant at a union or variant holding one.
bool explained_by_safe_integer_rule(const core::PayloadResults& p) {
  const layers::structural::InputTraits traits = layers::structural::analyse_input(p.input);
  const auto& big = traits.big_number_paths;
  const core::ImplResult* cpp = result_of(p, "cpp");
  const core::ImplResult* python = result_of(p, "python");
  if (big.empty() || !cpp || !python) return false;
  DiagSet extra = diagnostics_of(*cpp);
  for (const auto& d : diagnostics_of(*python)) {
    auto it = extra.find(d);
    if (it == extra.end()) return false;  // Python says something the C++ decoder does not
    extra.erase(it);
  }
  bool fired = false;
  for (const auto& diagnostic : extra) {
    const auto& [path, code, severity] = diagnostic;
    const std::string& at = path;  // clang 14 cannot capture a structured binding
    if (severity != "error") return false;
    if (std::find(big.begin(), big.end(), path) != big.end()) {
      fired = true;
      continue;
    }
    const bool container = code == "no_union_match" || code == "invalid_known_variant";
    const bool above = std::any_of(big.begin(), big.end(), [&](const std::string& b) {
      return b.size() > at.size() && b.compare(0, at.size(), at) == 0 && b[at.size()] == '/';
    });
    if (!(container && above)) return false;
  }
  return fired;
}

/// A divergence a baseline entry covers, on a payload whose other answers agree (see file comment).
bool known_divergence(const core::PayloadResults& p, const core::Divergence& d) {
  const bool covered =
      std::any_of(known().entries.begin(), known().entries.end(),
                  [&](const baseline::Entry& e) { return baseline::matches_divergence(e, p.root, d); });
  if (!covered) return false;
  return layers::structural::analyse_input(p.input).big_number_paths.empty() ||
         explained_by_safe_integer_rule(p);
}

std::string show(const core::ImplResult& r) {
  std::string s = r.implementation + ": " + core::outcome_name(r.outcome);
  for (const auto& d : r.diagnostics)
    s += " [" + d.path + " " + d.code + (d.severity == "error" ? "" : " (w)") + "]";
  if (r.message) s += " (" + r.message->substr(0, 200) + ")";
  return s;
}

/// A copy of the payload for the reproduce command (the test's own output folder).
std::string save_payload(const std::string& root, const std::string& bytes) {
  const std::filesystem::path dir =
      std::filesystem::path(CROSSCHECK_BINARY_DIR) / "test-out" / "differential-prop";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::filesystem::path file = dir / (root + "." + schema::sha256_hex(bytes).substr(0, 16) + ".json");
  std::ofstream(file, std::ios::binary) << bytes;
  return file.string();
}

/// Containers nested in `bytes` at the deepest point (brackets outside strings).
std::size_t nesting(std::string_view bytes) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (in_string) {
      if (c == '\\') ++i;
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::size_t& too_deep_count() {
  static std::size_t n = 0;
  return n;
}

/// What the payloads of every case came to (printed after a passing run).
std::map<std::string, std::size_t>& payload_counts() {
  static std::map<std::string, std::size_t> counts;
  return counts;
}
std::map<std::string, std::size_t>& case_counts() {
  static std::map<std::string, std::size_t> counts;
  return counts;
}

void differential_property() {
  const Env& e = env();
  // RapidCheck scales inRange with the size: the batch length is bounded by a small size (its
  // shrinking then drops payloads), each case is drawn at full size (every root and family).
  const auto cases = *rc::gen::resize(kMaxBatch, rc::gen::nonEmpty(rc::gen::container<std::vector<Case>>(
                                                     rc::gen::resize(100, case_gen(e.ir.roots.size())))));
  std::vector<exec::DecodeRequest> batch;
  std::vector<std::string> origins;
  for (const Case& c : cases) {
    const schema::Root& root = e.ir.roots[c.root];
    const json::Value value = e.generator.valid(root, c.seed);
    std::string origin = root.snake_name + " valid instance, seed " + std::to_string(c.seed);
    std::string bytes;
    if (c.family >= 0) {
      const Mutation m = all_mutations()[static_cast<std::size_t>(c.family)];
      if (auto mutant = e.mutator.apply(root, value, m, c.mutation_seed)) {
        origin += ", " + std::string(mutation_name(m)) + " seed " + std::to_string(c.mutation_seed) + ": " +
                  mutant->description;
        bytes = std::move(mutant->bytes);
      } else {
        origin += " (" + std::string(mutation_name(m)) + " has no place in it)";
      }
    }
    if (nesting(bytes) > kMaxNesting) {
      // Deeper than the decoder's parser goes: every divergence on it is implementation-defined,
      // and the comparator's scan of it recurses deeper than the ASan build's stack allows.
      origin +=
          " (nested deeper than " + std::to_string(kMaxNesting) + " levels: the valid instance is sent)";
      ++too_deep_count();
      bytes.clear();
    }
    if (bytes.empty()) bytes = json::write(value);
    batch.push_back({root.snake_name, std::move(bytes)});
    origins.push_back(std::move(origin));
  }
  auto results = const_cast<exec::ImplementationSet&>(*e.impls).run(batch);
  RC_ASSERT(results.size() == batch.size());
  std::map<std::string, std::size_t> tags;
  std::string failure;
  for (std::size_t k = 0; k < results.size(); ++k) {
    const auto& p = results[k];
    std::vector<const core::Divergence*> contract;
    for (const auto& d : p.divergences) {
      if (!d.implementation_defined) contract.push_back(&d);
    }
    if (contract.empty()) {
      ++tags[p.divergences.empty() ? "agree" : "implementation-defined only"];
      continue;
    }
    const std::size_t before = contract.size();
    std::erase_if(contract, [&](const core::Divergence* d) { return known_divergence(p, *d); });
    if (contract.size() < before) ++tags["known divergence (baseline)"];
    if (contract.empty()) continue;
    failure += "\n" + origins[k] + "\nroot " + p.root + ", payload (" + std::to_string(p.input.size()) +
               " bytes): " + p.input.substr(0, 2000) + (p.input.size() > 2000 ? "..." : "") + "\n";
    for (const auto* d : contract)
      failure += "  " + std::string(core::class_name(d->cls)) + ": " + d->detail + "\n";
    for (const auto& r : p.results) failure += "  " + show(r) + "\n";
    failure += "  replay: crosscheck run --root " + p.root + " --adapters cpp,python " +
               save_payload(p.root, p.input) + "\n";
  }
  for (const auto& [tag, n] : tags) {
    payload_counts()[tag] += n;
    case_counts()[tag] += 1;
  }
  if (!failure.empty()) RC_FAIL("contract divergence between cpp and python:" + failure);
}

// Half of the RC_PARAMS max_success (150 cases, about 675 payloads, by default): each case is a batch
// of adapter round trips. RC_PARAMS's seed and reproduce string apply as to every property.
TEST(DifferentialProps, GeneratedPayloadsGiveNoContractDivergenceBetweenCppAndPython) {
  ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
  ASSERT_TRUE(known().error.empty()) << known().error;
  std::cout << "[differential] known divergences: the entries of " << kBaseline << " naming python:";
  for (const auto& e : known().entries) std::cout << " " << e.id;
  std::cout << "\n";
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(1, params.maxSuccess / 2);
  const auto info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  const auto result = rc::detail::checkTestable(&differential_property, metadata, params);
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  if (result.template is<rc::detail::SuccessResult>()) {
    std::cout << message.str() << "\n[differential] " << too_deep_count()
              << " deep-nesting mutants deeper than " << kMaxNesting
              << " levels replaced by their valid instance; payloads:";
    for (const auto& [tag, n] : payload_counts())
      std::cout << " " << n << " " << tag << " (in " << case_counts()[tag] << " cases);";
    std::cout << std::endl;
  } else {
    FAIL() << message.str();
  }
}

}  // namespace
}  // namespace crosscheck::gen
