// splitmix.hpp: the 64-bit mixer behind a fuzz run's choices. Iteration i's seed is
// splitmix(seed ^ splitmix(i)), so every input depends on (run seed, i) alone: shards of one seed
// split one run's inputs, and a resumed run goes on where it stopped.
#pragma once

#include <cstdint>

namespace crosscheck::campaign {

inline std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace crosscheck::campaign
