// base64.cpp: the codec behind base64.hpp (no packaged C++ one in Debian outside Boost internals).
#include "util/base64.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

#if defined(__x86_64__)
// AVX2 blocks of 24 bytes <-> 32 characters, chosen at run time (the build targets plain x86-64):
// the scheme of W. Mula and D. Lemire, "Faster Base64 Encoding and Decoding Using AVX2
// Instructions" (ACM TWEB 2018). The codec was 17% of the adapter pool's CPU per request and about a
// tenth of serve-adapter's (bench_adapters, perf) at a byte or two per cycle; no packaged library
// here has a vectorised base64 (simdutf's and aklomp/base64 are not in Debian 12). The tables and
// the scalar code above stay the reference: every block the vector code cannot take (a character
// outside the alphabet, padding, the tail) goes to them, so errors are found and worded as before.
// The CPU is asked once, at start-up (__builtin_cpu_init first: this runs among the constructors,
// and a codec called before it sees false and takes the scalar path, which answers the same).
bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
const bool kHaveAvx2 = cpu_has_avx2();

/// Encodes 24 bytes at `in` to 32 characters at `out`; reads 28 (the caller leaves 4 to spare).
__attribute__((target("avx2"))) void encode_block_avx2(const unsigned char* in, char* out) {
  // Each 128-bit lane takes 12 input bytes; a 32-bit group gets bytes (b1, b0, b2, b1) of its triple,
  // so that its two 16-bit halves hold b0:b1 and b1:b2 with each 6-bit index in one half.
  const __m256i bytes =
      _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(in + 12), reinterpret_cast<const __m128i*>(in));
  const __m256i spread =
      _mm256_shuffle_epi8(bytes, _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10, 1, 0, 2,
                                                  1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10));
  // Index 0 (bits 15-10 of the low half) and 2 (bits 11-6 of the high half) shifted down by a
  // high multiply; 1 (bits 9-4, low) and 3 (bits 5-0, high) shifted up into the second byte of
  // their half by a low multiply.
  const __m256i first = _mm256_mulhi_epu16(_mm256_and_si256(spread, _mm256_set1_epi32(0x0FC0FC00)),
                                           _mm256_set1_epi32(0x04000040));
  const __m256i second = _mm256_mullo_epi16(_mm256_and_si256(spread, _mm256_set1_epi32(0x003F03F0)),
                                            _mm256_set1_epi32(0x01000010));
  const __m256i indices = _mm256_or_si256(first, second);
  // Index to character by the offset of its range: A-Z +65, a-z +71, 0-9 -4, '+' -19, '/' -16.
  // Range numbers: 0 for 0-25, 1 for 26-51, then 2-13 for 52-63 (saturating subtract of 51, plus
  // one for everything above 25).
  const __m256i range = _mm256_sub_epi8(_mm256_subs_epu8(indices, _mm256_set1_epi8(51)),
                                        _mm256_cmpgt_epi8(indices, _mm256_set1_epi8(25)));
  const __m256i offsets = _mm256_setr_epi8(65, 71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -19, -16, 0, 0, 65,
                                           71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -19, -16, 0, 0);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                      _mm256_add_epi8(indices, _mm256_shuffle_epi8(offsets, range)));
}

/// Decodes 32 characters at `in` to 24 bytes at `out` (writing 32); false, and nothing written, if
/// any of them is outside the alphabet (padding included).
__attribute__((target("avx2"))) bool decode_block_avx2(const unsigned char* in, unsigned char* out) {
  const __m256i chars = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i high = _mm256_and_si256(_mm256_srli_epi32(chars, 4), nibble);
  const __m256i low = _mm256_and_si256(chars, nibble);
  // A character is in the alphabet iff the bit sets of its low and high nibble are disjoint. High
  // nibble 2 -> 0x01, 3 -> 0x02, 4 and 6 -> 0x04, 5 and 7 -> 0x08, any other -> 0x10 (never valid);
  // a low nibble's set holds the bits of the high nibbles that make it invalid (and always 0x10).
  const __m256i by_low = _mm256_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13,
                                          0x1A, 0x1B, 0x1B, 0x1B, 0x1A, 0x15, 0x11, 0x11, 0x11, 0x11, 0x11,
                                          0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);
  const __m256i by_high = _mm256_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10,
                                           0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x01, 0x02, 0x04, 0x08,
                                           0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
  if (!_mm256_testz_si256(_mm256_shuffle_epi8(by_low, low), _mm256_shuffle_epi8(by_high, high))) return false;
  // Character to value by the offset of its high nibble, '/' (high nibble 2, like '+') moved to
  // slot 1: '+' +19, '/' +16, digits +4, letters -65 and -71.
  const __m256i is_slash = _mm256_cmpeq_epi8(chars, _mm256_set1_epi8(0x2F));
  const __m256i offsets = _mm256_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16,
                                           19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i values =
      _mm256_add_epi8(chars, _mm256_shuffle_epi8(offsets, _mm256_add_epi8(high, is_slash)));
  // Four 6-bit values to 24 bits per 32-bit group (a<<18 | b<<12 | c<<6 | d), then its three bytes
  // high first, packed to the low 24 bytes.
  const __m256i pairs = _mm256_maddubs_epi16(values, _mm256_set1_epi32(0x01400140));
  const __m256i groups = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
  const __m256i ordered =
      _mm256_shuffle_epi8(groups, _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2,
                                                   1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                      _mm256_permutevar8x32_epi32(ordered, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7)));
  return true;
}
#endif
}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  base64_encode_to(out, bytes);
  return out;
}

void base64_encode_to(std::string& out, std::string_view bytes) {
  // Written through a pointer into a sized string: appending a char at a time was a tenth of the
  // adapter pool's time per request (bench/bench_adapters).
  const std::size_t start = out.size();
  out.resize(start + (bytes.size() + 2) / 3 * 4);
  char* o = out.data() + start;
  std::size_t i = 0;
#if defined(__x86_64__)
  if (kHaveAvx2) {
    const auto* in = reinterpret_cast<const unsigned char*>(bytes.data());
    for (; i + 28 <= bytes.size(); i += 24, o += 32) encode_block_avx2(in + i, o);
  }
#endif
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
  std::size_t i = 0;
#if defined(__x86_64__)
  // A block writes 32 bytes for its 24: it needs 8 spare ones before the end of `out`.
  if (kHaveAvx2) {
    for (; i + 32 <= body && static_cast<std::size_t>(o - out.data()) + 32 <= out.size(); i += 32, o += 24) {
      if (!decode_block_avx2(in + i, reinterpret_cast<unsigned char*>(o))) break;
    }
  }
#endif
  for (; i < body; i += 4) {
    std::uint32_t v =
        kShifted[0][in[i]] | kShifted[1][in[i + 1]] | kShifted[2][in[i + 2]] | kShifted[3][in[i + 3]];
    if (v & kBad) return std::nullopt;
    std::uint32_t ordered = in_memory_order(v);  // the three bytes, then a spare one
    std::memcpy(o, &ordered, 4);
    o += 3;
  }
  for (i = body; i < text.size(); i += 4) {
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
