// base64.cpp: the codec behind base64.hpp (no packaged C++ one in Debian outside Boost internals).
#include "util/base64.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace crosscheck {
namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int, 256> make_table() {
  std::array<int, 256> t{};
  for (auto& x : t) x = -1;
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = i;
  return t;
}
constexpr auto kTable = make_table();

// The encoder writes two characters per 12 bits of input from one table (8 KB), the decoder ORs
// four pre-shifted 24-bit values (4 KB): half the lookups and shifts of a character at a time, and
// the codec is 9% of serve-adapter's CPU per request (bench_adapters, perf).
constexpr std::array<std::uint16_t, 4096> make_pairs() {
  std::array<std::uint16_t, 4096> t{};
  for (int i = 0; i < 4096; ++i) {
    // The first character at the lower address once memcpy stores the pair.
    unsigned first = static_cast<unsigned char>(kAlphabet[i >> 6]);
    unsigned second = static_cast<unsigned char>(kAlphabet[i & 63]);
    t[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(
        std::endian::native == std::endian::little ? first | (second << 8) : (first << 8) | second);
  }
  return t;
}
constexpr auto kPairs = make_pairs();

constexpr std::uint32_t kBad = 1u << 24;  // outside the 24 bits a quad decodes to
constexpr std::array<std::array<std::uint32_t, 256>, 4> make_shifted() {
  std::array<std::array<std::uint32_t, 256>, 4> t{};
  for (std::size_t k = 0; k < 4; ++k) {
    for (std::size_t c = 0; c < 256; ++c) {
      int v = kTable[c];
      t[k][c] = v < 0 ? kBad : static_cast<std::uint32_t>(v) << (18 - 6 * k);
    }
  }
  return t;
}
constexpr auto kShifted = make_shifted();

/// A decoded quad's three bytes in order at the lowest addresses of a 32-bit store.
std::uint32_t in_memory_order(std::uint32_t v) {
  return std::endian::native == std::endian::little ? __builtin_bswap32(v << 8) : v << 8;
}
}  // namespace

std::string base64_encode(std::string_view bytes) {
  // Written through a pointer into a sized string: appending a char at a time was a tenth of the
  // adapter pool's time per request (bench/bench_adapters).
  std::string out((bytes.size() + 2) / 3 * 4, '\0');
  char* o = out.data();
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                 (static_cast<unsigned char>(bytes[i + 1]) << 8) | static_cast<unsigned char>(bytes[i + 2]);
    std::memcpy(o, &kPairs[v >> 12], 2);
    std::memcpy(o + 2, &kPairs[v & 0xfff], 2);
    o += 4;
  }
  if (i < bytes.size()) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    *o++ = kAlphabet[(v >> 18) & 63];
    *o++ = kAlphabet[(v >> 12) & 63];
    *o++ = i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    *o++ = '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out(text.size() / 4 * 3, '\0');
  char* o = out.data();
  // Every quad but the last holds no padding: one test of the OR of its four values for a character
  // outside the alphabet, and no per-quad padding tests. Each writes four bytes (the fourth is
  // overwritten by the next quad; the last quad writes at least one byte after it).
  const std::size_t body = text.empty() ? 0 : text.size() - 4;
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
  for (std::size_t i = 0; i < body; i += 4) {
    std::uint32_t v =
        kShifted[0][in[i]] | kShifted[1][in[i + 1]] | kShifted[2][in[i + 2]] | kShifted[3][in[i + 3]];
    if (v & kBad) return std::nullopt;
    std::uint32_t ordered = in_memory_order(v);  // the three bytes, then a spare one
    std::memcpy(o, &ordered, 4);
    o += 3;
  }
  for (std::size_t i = body; i < text.size(); i += 4) {
    int a = kTable[static_cast<unsigned char>(text[i])], b = kTable[static_cast<unsigned char>(text[i + 1])];
    bool last = i + 4 == text.size();
    int c = text[i + 2] == '=' && last ? -2 : kTable[static_cast<unsigned char>(text[i + 2])];
    int d = text[i + 3] == '=' && last ? -2 : kTable[static_cast<unsigned char>(text[i + 3])];
    if (a < 0 || b < 0 || c == -1 || d == -1 || (c == -2 && d != -2)) return std::nullopt;
    *o++ = static_cast<char>((a << 2) | (b >> 4));
    if (c >= 0) {
      *o++ = static_cast<char>(((b & 15) << 4) | (c >> 2));
      if (d >= 0)
        *o++ = static_cast<char>(((c & 3) << 6) | d);
      else if ((c & 3) != 0)
        return std::nullopt;  // non-canonical padding bits
    } else if ((b & 15) != 0) {
      return std::nullopt;
    }
  }
  out.resize(static_cast<std::size_t>(o - out.data()));
  return out;
}

}  // namespace crosscheck
