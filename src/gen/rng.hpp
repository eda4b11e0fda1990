// rng.hpp: the generators' only source of randomness.
//
// std::mt19937_64's output sequence is fixed by the standard, but the std distributions are not
// (libstdc++ and libc++ map the same engine output to different numbers). So every draw goes
// through the small helpers below, and a seed replays the same bytes on every platform.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace crosscheck::gen {

/// splitmix64 finaliser: mixes a seed with a stream number into an independent engine seed.
inline std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  std::uint64_t next() { return engine_(); }
  /// Uniform in [0, n); 0 when n == 0. Rejection sampling keeps it unbiased.
  std::uint64_t below(std::uint64_t n) {
    if (n <= 1) return 0;
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
    std::uint64_t x;
    do {
      x = engine_();
    } while (x >= limit);
    return x % n;
  }
  /// Uniform in [lo, hi] (inclusive).
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    if (hi <= lo) return lo;
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    if (span == ~std::uint64_t{0}) return static_cast<std::int64_t>(engine_());
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + below(span + 1));
  }
  /// True with probability p (53-bit resolution).
  bool chance(double p) {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return static_cast<double>(engine_() >> 11) * 0x1.0p-53 < p;
  }
  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[below(items.size())];
  }
  template <class T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace crosscheck::gen
