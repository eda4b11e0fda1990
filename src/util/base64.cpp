// base64.cpp: the codec behind base64.hpp (no packaged C++ one in Debian outside Boost internals).
#include "util/base64.hpp"

#include <array>

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
    *o++ = kAlphabet[(v >> 18) & 63];
    *o++ = kAlphabet[(v >> 12) & 63];
    *o++ = kAlphabet[(v >> 6) & 63];
    *o++ = kAlphabet[v & 63];
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
  // Every quad but the last holds no padding: one check of all four for a character outside the
  // alphabet (-1 sets the sign bit of the OR), and no per-quad padding tests.
  const std::size_t body = text.empty() ? 0 : text.size() - 4;
  for (std::size_t i = 0; i < body; i += 4) {
    int a = kTable[static_cast<unsigned char>(text[i])], b = kTable[static_cast<unsigned char>(text[i + 1])];
    int c = kTable[static_cast<unsigned char>(text[i + 2])],
        d = kTable[static_cast<unsigned char>(text[i + 3])];
    if ((a | b | c | d) < 0) return std::nullopt;
    *o++ = static_cast<char>((a << 2) | (b >> 4));
    *o++ = static_cast<char>(((b & 15) << 4) | (c >> 2));
    *o++ = static_cast<char>(((c & 3) << 6) | d);
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
