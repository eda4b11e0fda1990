// sha256.hpp: SHA-256 of bytes as lower-case hex (OpenSSL EVP), for document and closure hashes.
#pragma once

#include <string>
#include <string_view>

namespace crosscheck::schema {

/// 64 lower-case hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace crosscheck::schema
