#include <gtest/gtest.h>

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

}  // namespace
}  // namespace crosscheck
