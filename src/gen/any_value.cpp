// any_value.cpp: random opaque values and strings (see any_value.hpp).
#include "gen/any_value.hpp"

#include <array>
#include <string_view>

namespace crosscheck::gen {

namespace {

constexpr std::array<std::string_view, 14> kStrings = {"",
                                                       "a",
                                                       "hello world",
                                                       "x-1",
                                                       "\xc3\xa9t\xc3\xa9",  // été
                                                       "\xe6\x97\xa5\xe6\x9c\xac",
                                                       "\xf0\x9f\x98\x80",  // 日本, 😀
                                                       "say \"hi\"",
                                                       "back\\slash",
                                                       "line\nbreak",
                                                       "tab\there",
                                                       "/path/to",
                                                       "2026-01-01T00:00:00Z",
                                                       "0"};

}  // namespace

std::string random_string(Rng& rng) {
  if (rng.chance(0.6)) return std::string(kStrings[rng.below(kStrings.size())]);
  static constexpr std::string_view kAlphabet =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";
  std::string s;
  for (std::uint64_t n = 1 + rng.below(12); n > 0; --n) s.push_back(kAlphabet[rng.below(kAlphabet.size())]);
  return s;
}

std::string random_integer(Rng& rng, std::int64_t lo, std::int64_t hi) {
  // Mostly small values, sometimes the ends of the range (edges find bound checks).
  switch (rng.below(4)) {
    case 0:
      return std::to_string(lo);
    case 1:
      return std::to_string(hi);
    default: {
      const std::int64_t small_lo = std::max<std::int64_t>(lo, -100),
                         small_hi = std::min<std::int64_t>(hi, 1000);
      if (small_lo <= small_hi && rng.chance(0.8)) return std::to_string(rng.between(small_lo, small_hi));
      return std::to_string(rng.between(lo, hi));
    }
  }
}

std::string random_number(Rng& rng) {
  // Two draws are never operands of one expression: the order in which `a + b` (or f(a, b))
  // evaluates its operands is unspecified, and g++ and clang differ, so the same seed would give
  // different numbers in different builds. Each draw gets its own statement.
  switch (rng.below(6)) {
    case 0:
      return std::to_string(rng.between(-1000, 1000));
    case 1: {
      const std::int64_t whole = rng.between(0, 9);
      const std::int64_t fraction = rng.between(0, 999);
      return std::to_string(whole) + "." + std::to_string(fraction);
    }
    case 2: {
      const std::int64_t whole = rng.between(0, 99);
      const std::int64_t fraction = rng.between(1, 99);
      return "-" + std::to_string(whole) + "." + std::to_string(fraction);
    }
    case 3: {
      const std::int64_t mantissa = rng.between(1, 9);
      const std::int64_t exponent = rng.between(-5, 10);
      return std::to_string(mantissa) + "E" + std::to_string(exponent);
    }
    case 4:
      return "0.5";
    default:
      return "0";
  }
}

json::Value random_any(Rng& rng, std::size_t depth) {
  const std::uint64_t kinds = depth == 0 ? 4 : 6;
  switch (rng.below(kinds)) {
    case 0:
      return json::Value::null();
    case 1:
      return json::Value::boolean(rng.chance(0.5));
    case 2:
      return json::Value::number(random_number(rng));
    case 3:
      return json::Value::string(random_string(rng));
    case 4: {
      json::Value array = json::Value::array();
      for (std::uint64_t n = rng.below(4); n > 0; --n) array.push(random_any(rng, depth - 1));
      return array;
    }
    default: {
      json::Value object = json::Value::object();
      for (std::uint64_t i = 0, n = rng.below(4); i < n; ++i) {
        // Distinct keys: duplicates are implementation-defined input. Key first, then the value,
        // in separate statements (argument evaluation order is unspecified).
        std::string key = "k" + std::to_string(i) + (rng.chance(0.3) ? "\xc3\xa9" : "");
        json::Value item = random_any(rng, depth - 1);
        object.add(std::move(key), std::move(item));
      }
      return object;
    }
  }
}

std::string unknown_member_name(std::uint64_t n) { return "x-cc-" + std::to_string(n % 1000); }

}  // namespace crosscheck::gen
