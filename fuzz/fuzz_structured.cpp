// fuzz_structured.cpp: structure-aware fuzzing of the C++ decoder, mutating over the schema IR.
//
// Same input layout and invariants as fuzz_decode (support.hpp). One custom-mutator call in
// structured_one_in() is structure-aware: byte 0 (the root) is kept and the payload parsed as JSON;
// a parsed payload gets one gen::Mutator change aimed at an edge of the contract (unknown members,
// tags and enum values, integer edges, forbidden sets, duplicate keys, string edges...), seeded from
// libFuzzer's seed, and a payload that does not parse is replaced by a valid instance of the root
// (from a pool that keeps turning over, ValidPool; now and then a fresh one goes out unmutated, so
// the accept path stays fed). Now and then the root changes too.
// The other calls are libFuzzer's own mutations with the schema dictionary. Why a share: a
// gen::Mutator mutant costs about 1 ms on a 1-4 KB message (docs/fuzzing.md) against tens of
// microseconds for an execution, so mutating every input that way would starve the fuzzer.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/support.hpp"
#include "gen/generator.hpp"
#include "gen/rng.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

// True while the custom mutator runs: in the CMake fuzz builds, mutator_cmp_filter.cpp then drops the
// CMP-trace callbacks of the instrumented code that gen:: calls (they say nothing about the input).
extern "C" {
bool crosscheck_fuzz_in_custom_mutator = false;
}

namespace {

using namespace crosscheck;

const gen::ValueGenerator& generator() {
  static const gen::ValueGenerator g(fuzz::real_ir());
  return g;
}

const gen::Mutator& mutator() {
  static const gen::Mutator m(fuzz::real_ir());
  return m;
}

/// How many custom-mutator calls share one structure-aware mutation: $CROSSCHECK_STRUCTURED_ONE_IN
/// (1 = every call, as the replay ctest does), default 16.
std::uint64_t structured_one_in() {
  static const std::uint64_t n = [] {
    const char* env = std::getenv("CROSSCHECK_STRUCTURED_ONE_IN");
    unsigned long long v = env ? std::strtoull(env, nullptr, 10) : 0;
    return v > 0 ? static_cast<std::uint64_t>(v) : std::uint64_t{16};
  }();
  return n;
}

/// Valid instances of each root, kept for reuse. Why: a payload that does not parse needs a fresh
/// valid instance to mutate, and ValueGenerator::valid costs about 45 us (build/bench_mutator), most
/// of it the decoder checks of what it builds, against a few for a copy; it was 18% of the target's
/// time (perf, docs/benchmarks.md). One draw in kFreshOneIn generates a new instance into a random
/// slot, so the pool keeps turning over: the bases stay varied and the mutation on top is new each
/// time. Each slot keeps its instance's walk too (gen::MutationWalk, 5% of the target's time when
/// every mutation walked its value again): most structure-aware mutations start from the pool, since
/// most of what libFuzzer's byte mutations leave in the corpus does not parse.
class ValidPool {
 public:
  static constexpr std::size_t kSlots = 8;
  static constexpr std::uint64_t kFreshOneIn = 8;

  struct Draw {
    const json::Value& value;  // stays in its slot until the slot's next fresh draw
    gen::MutationWalk& walk;
    bool fresh;  // just generated
  };

  ValidPool() : slots_(fuzz::real_ir().roots.size()) {}

  /// A valid instance of `root` (one of real_ir().roots), with its walk.
  Draw draw(const schema::Root& root, std::mt19937_64& rng) {
    Slot& slot = slots_[static_cast<std::size_t>(&root - fuzz::real_ir().roots.data())][rng() % kSlots];
    const bool fresh = !slot.value || rng() % kFreshOneIn == 0;
    if (fresh) {
      slot.value = generator().valid(root, rng());
      slot.walk = gen::MutationWalk();
    }
    return {*slot.value, slot.walk, fresh};
  }

 private:
  struct Slot {
    std::optional<json::Value> value;
    gen::MutationWalk walk;
  };
  std::vector<std::array<Slot, kSlots>> slots_;  // indexed like real_ir().roots
};

ValidPool& valid_pool() {
  static ValidPool pool;
  return pool;
}

/// libFuzzer's own mutations on the payload, byte 0 (the root) kept.
std::size_t byte_mutate(std::uint8_t* data, std::size_t size, std::size_t max_size) {
  if (size == 0) return LLVMFuzzerMutate(data, size, max_size);
  return 1 + LLVMFuzzerMutate(data + 1, size - 1, max_size - 1);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  fuzz::real_decoder();
  generator();
  mutator();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::check_selector_input(data, size);
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  if (max_size < 2) return LLVMFuzzerMutate(data, size, max_size);
  // Whether this call is structure-aware comes from the seed mixed once: seeding a std::mt19937_64
  // (312 words, then a twist of all of them) on the 15 in 16 calls that only byte-mutate cost 3-5% of
  // the target's exec/s (docs/benchmarks.md, 2026-12-06).
  if (size > 0 && gen::mix_seed(seed, 0) % structured_one_in() != 0) return byte_mutate(data, size, max_size);
  struct InCustomMutator {
    InCustomMutator() { crosscheck_fuzz_in_custom_mutator = true; }
    ~InCustomMutator() { crosscheck_fuzz_in_custom_mutator = false; }
  } in_custom_mutator;
  std::mt19937_64 rng(seed);
  auto roll = [&rng](std::uint64_t n) { return rng() % n == 0; };

  std::uint8_t selector = size > 0 ? data[0] : static_cast<std::uint8_t>(rng());
  bool new_root = size == 0 || roll(16);
  if (new_root) selector = static_cast<std::uint8_t>(rng());
  const schema::Root& root = fuzz::root_for(selector);

  std::optional<json::Value> value;
  if (!new_root) {
    auto parsed = json::parse(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
    if (parsed) value = std::move(parsed).value();
  }
  std::string payload;
  if (value) {
    payload = mutator().any(root, *value, rng()).bytes;
  } else {
    // A fresh instance goes out as it is, so the accept path stays fed (1 draw in 8, as when every
    // draw was fresh and 1 in 8 went out unmutated); later draws of it are mutated.
    ValidPool::Draw base = valid_pool().draw(root, rng);
    payload = base.fresh ? json::write(base.value) : mutator().any(root, base.value, rng(), base.walk).bytes;
  }
  if (payload.size() + 1 > max_size) return byte_mutate(data, size, max_size);
  data[0] = selector;
  std::memcpy(data + 1, payload.data(), payload.size());
  return payload.size() + 1;
}
