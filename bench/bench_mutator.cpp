// bench_mutator.cpp: microseconds per gen::Mutator call on 1-4 KB real-schema messages, per family.
//
// The messages are valid instances of every root (ValueGenerator, seeds 0..) whose compact JSON is
// 1-4 KB, as fuzz_structured's custom mutator and `crosscheck fuzz` see them. For each family it
// prints the mean CPU time of Mutator::apply over every message and a few seeds, and then the mean
// of Mutator::any (what both fuzzers call). One core, no adapters. CPU time (not wall time) so that
// the figures hold on a shared machine.
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gen/generator.hpp"
#include "json/write.hpp"
#include "schema/loader.hpp"

using namespace crosscheck;

namespace {

double cpu_microseconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

}  // namespace

int main(int argc, char** argv) {
  auto path = schema::default_schema_path();
  if (!path) {
    std::fprintf(stderr, "ERROR: no schema bundle recorded (.deps/schema-path): run ./setup install\n");
    return 2;
  }
  auto loaded = schema::load_schema(*path);
  if (!loaded) {
    std::fprintf(stderr, "ERROR: %s\n", loaded.error().message().c_str());
    return 2;
  }
  const schema::Ir& ir = loaded.value();
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 4;
  gen::ValueGenerator generator(ir);
  gen::Mutator mutator(ir);
  struct Message {
    const schema::Root* root;
    json::Value value;
  };
  std::vector<Message> messages;
  std::size_t bytes = 0;
  for (const auto& root : ir.roots) {
    for (std::uint64_t seed = 0, kept = 0; seed < 400 && kept < 4; ++seed) {
      json::Value v = generator.valid(root, seed);
      const std::size_t size = json::write(v).size();
      if (size < 1024 || size > 4096) continue;
      bytes += size;
      ++kept;
      messages.push_back({&root, std::move(v)});
    }
  }
  std::printf("%zu messages of 1-4 KB (mean %zu bytes), %d seeds each\n", messages.size(),
              messages.empty() ? 0 : bytes / messages.size(), seeds);
  std::printf("%-22s %10s %8s\n", "family", "CPU us", "applied");
  auto time = [&](auto&& call) {
    std::size_t n = 0, applied = 0;
    const double start = cpu_microseconds();
    for (const auto& m : messages) {
      // A seed per call, not 0..seeds-1 for every message: any() picks its first family from the
      // seed, and the same few seeds would time the same few of its 21 starting families.
      for (int s = 0; s < seeds; ++s, ++n) applied += call(m, static_cast<std::uint64_t>(n));
    }
    const double us = cpu_microseconds() - start;
    return std::make_pair(n ? us / static_cast<double>(n) : 0.0, applied);
  };
  double total = 0;
  for (gen::Mutation family : gen::all_mutations()) {
    auto [us, applied] = time([&](const Message& m, std::uint64_t s) {
      return mutator.apply(*m.root, m.value, family, s).has_value();
    });
    total += us;
    std::printf("%-22s %10.1f %8zu\n", gen::mutation_name(family), us, applied);
  }
  std::printf("%-22s %10.1f\n", "(mean of families)",
              total / static_cast<double>(gen::all_mutations().size()));
  auto [us, applied] = time(
      [&](const Message& m, std::uint64_t s) { return !mutator.any(*m.root, m.value, s).bytes.empty(); });
  std::printf("%-22s %10.1f %8zu\n", "any()", us, applied);
  // What fuzz_structured does when its input is not JSON: a fresh valid instance of the root.
  auto [valid_us, generated] =
      time([&](const Message& m, std::uint64_t s) { return generator.valid(*m.root, 1000 + s).is_object(); });
  std::printf("%-22s %10.1f %8zu\n", "ValueGenerator::valid", valid_us, generated);
  return 0;
}
