// format_text.cpp: random strings of the formats the canonical generator draws (format_text.hpp).
#include "gen/format_text.hpp"

#include <iterator>

namespace crosscheck::gen {
namespace {

std::string two(std::uint64_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }

std::string random_host(Rng& rng) {
  const std::size_t n = 3 + static_cast<std::size_t>(rng.below(6));
  return letters(rng, n) + (rng.chance(0.5) ? ".example.com" : ".test");
}

std::string random_path(Rng& rng) {
  std::string out;
  const std::uint64_t segments = rng.below(3);
  for (std::uint64_t i = 0; i < segments; ++i)
    out += "/" + letters(rng, 1 + static_cast<std::size_t>(rng.below(6)));
  if (rng.chance(0.2)) out += "?q=" + letters(rng, 3);
  if (rng.chance(0.1)) out += "#" + letters(rng, 2);
  return out;
}

}  // namespace

std::string letters(Rng& rng, std::size_t n) {
  static const char kAlnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(kAlnum[rng.below(sizeof(kAlnum) - 1)]);
  return out;
}

std::string random_date_time(Rng& rng) {
  const std::uint64_t year = 1970 + rng.below(130);
  const std::uint64_t month = 1 + rng.below(12);
  const std::uint64_t day = 1 + rng.below(28);
  const std::uint64_t hour = rng.below(24);
  const std::uint64_t minute = rng.below(60);
  const std::uint64_t second = rng.below(60);
  std::string out = std::to_string(year) + "-" + two(month) + "-" + two(day) + "T" + two(hour) + ":" +
                    two(minute) + ":" + two(second);
  if (rng.chance(0.3)) out += "." + std::to_string(rng.below(1000000));
  if (rng.chance(0.6)) {
    out += "Z";
  } else {
    const bool plus = rng.chance(0.5);
    const std::uint64_t oh = plus ? rng.below(15) : 1 + rng.below(12);
    const std::uint64_t om = rng.chance(0.8) ? 0 : 30;
    out += std::string(plus ? "+" : "-") + two(oh) + ":" + two(om);
  }
  return out;
}

std::string random_uri(Rng& rng) {
  switch (rng.below(5)) {
    case 0:
      return "http://" + random_host(rng) + ":" + std::to_string(1 + rng.below(65535)) + random_path(rng);
    case 1:
      return "urn:example:" + letters(rng, 5);
    case 2:
      return "file:///tmp/" + letters(rng, 4);
    default:
      return "https://" + random_host(rng) + random_path(rng);
  }
}

std::string uri_suffix(const std::string& prefix, Rng& rng) {
  if (prefix.size() >= 3 && prefix.compare(prefix.size() - 3, 3, "://") == 0)
    return random_host(rng) + random_path(rng);
  if (!prefix.empty() && (prefix.back() == '/' || prefix.back() == '?' || prefix.back() == '#'))
    return letters(rng, 1 + static_cast<std::size_t>(rng.below(5)));
  return rng.chance(0.5) ? "/" + letters(rng, 3) : "";
}

std::string random_text(Rng& rng, std::size_t n, bool astral_ok) {
  static const char* const kPieces[] = {"a", "b", "e", "k", "n", "r", "s", "t", "x", "z",  "A", "Q",
                                        "0", "4", "9", " ", "-", "_", ".", "/", "é", "中", "ß"};
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (astral_ok && rng.chance(0.02)) {
      out += "\xF0\x9F\x98\x80";  // U+1F600
    } else {
      out += kPieces[rng.below(std::size(kPieces))];
    }
  }
  return out;
}

}  // namespace crosscheck::gen
