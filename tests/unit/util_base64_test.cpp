#include <gtest/gtest.h>

#include <random>

#include "util/base64.hpp"

namespace crosscheck {
namespace {

TEST(Base64, Rfc4648Vectors) {
  const char* plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  const char* coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(base64_encode(plain[i]), coded[i]);
    EXPECT_EQ(base64_decode(coded[i]).value(), plain[i]);
  }
}

TEST(Base64, BinaryRoundTrip) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  EXPECT_EQ(base64_decode(base64_encode(all)).value(), all);
}

TEST(Base64, RejectsMalformed) {
  for (const char* bad : {"Zg=", "Zg", "Z===", "Zm9v!", "Zh==", "Zm9=", "Zg==Zg==", "Zm 9v", "=Zg="}) {
    EXPECT_FALSE(base64_decode(bad).has_value()) << bad;
  }
}

// RFC 4648 section 4 bit by bit, six bits per character: the table-driven codec must agree with it.
const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string reference_encode(const std::string& bytes) {
  std::string bits, out;
  for (unsigned char c : bytes) {
    for (int b = 7; b >= 0; --b) bits.push_back((c >> b) & 1 ? '1' : '0');
  }
  while (bits.size() % 6 != 0) bits.push_back('0');
  for (std::size_t i = 0; i < bits.size(); i += 6)
    out.push_back(kAlphabet[std::stoi(bits.substr(i, 6), nullptr, 2)]);
  while (out.size() % 4 != 0) out.push_back('=');
  return out;
}

/// nullopt unless canonical: alphabet characters, then padding only at the end making a multiple of
/// four, and zero bits where the padding cuts a character.
std::optional<std::string> reference_decode(const std::string& text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::size_t pad = 0;
  while (pad < text.size() && pad < 2 && text[text.size() - 1 - pad] == '=') ++pad;
  std::string bits;
  for (std::size_t i = 0; i < text.size() - pad; ++i) {
    std::size_t v = kAlphabet.find(text[i]);
    if (v == std::string::npos) return std::nullopt;
    for (int b = 5; b >= 0; --b) bits.push_back((v >> b) & 1 ? '1' : '0');
  }
  std::size_t keep = bits.size() / 8 * 8;
  if (bits.find('1', keep) != std::string::npos) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < keep; i += 8)
    out.push_back(static_cast<char>(std::stoi(bits.substr(i, 8), nullptr, 2)));
  return out;
}

/// Encodes `length` random bytes and decodes the result, both against the reference, then decodes
/// it with the character at each position `corrupt(at, size)` picks replaced by each of `chars`;
/// returns how many of those the codec refused (each refusal matched the reference).
template <class Corrupt>
std::size_t check_against_reference(std::mt19937& rng, std::size_t length, std::initializer_list<char> chars,
                                    Corrupt corrupt) {
  std::string bytes;
  for (std::size_t i = 0; i < length; ++i) bytes.push_back(static_cast<char>(rng() & 0xff));
  const std::string coded = base64_encode(bytes);
  EXPECT_EQ(coded, reference_encode(bytes)) << length;
  EXPECT_EQ(base64_decode(coded), std::optional<std::string>(bytes)) << length;
  std::size_t rejected = 0;
  for (std::size_t at = 0; at < coded.size(); ++at) {
    if (!corrupt(at, coded.size())) continue;
    for (char c : chars) {
      std::string bad = coded;
      bad[at] = c;
      auto got = base64_decode(bad);
      EXPECT_EQ(got, reference_decode(bad)) << length << " at " << at << " " << int(c);
      rejected += got ? 0 : 1;
    }
  }
  return rejected;
}

TEST(Base64, AgreesWithTheBitwiseReferenceOnRandomBytesAndEveryOneCharacterCorruption) {
  std::mt19937 rng(20261206);
  std::size_t rejected = 0;
  // Each position replaced by a character of every class: alphabet, padding, outside it.
  for (std::size_t length = 0; length < 70; ++length) {
    rejected +=
        check_against_reference(rng, length, {'A', 'Q', '/', '+', '=', '!', '\0', '\xff', ' ', '-', '_'},
                                [](std::size_t, std::size_t) { return true; });
  }
  EXPECT_GT(rejected, 10000u);  // the corruptions mostly fail, and each failure matched the reference
}

// Payload-sized inputs: on a machine with AVX2 most of them go through the 24-byte vector blocks,
// each block boundary and the scalar tail included; corruptions at every fifth position and at each
// of the last 40 (where the vector loop hands over to the scalar one), by characters next to the
// alphabet's ranges as well.
TEST(Base64, AgreesWithTheBitwiseReferenceOnPayloadSizedInputs) {
  std::mt19937 rng(7);
  for (std::size_t length : {70u, 71u, 72u, 95u, 96u, 97u, 100u, 119u, 120u, 121u, 255u, 1000u, 4099u}) {
    check_against_reference(rng, length,
                            {'A', 'z', '9', '/', '+', '=', '\x2e', '\x3a', '\x5b', '\x7b', '\x80', '\0'},
                            [](std::size_t at, std::size_t size) { return at % 5 == 0 || at + 40 >= size; });
  }
}

}  // namespace
}  // namespace crosscheck
