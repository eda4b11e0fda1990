// base64.hpp: RFC 4648 base64 (standard alphabet, padded), for the adapter protocol and findings.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace crosscheck {

std::string base64_encode(std::string_view bytes);
/// Appends the encoding of `bytes` to `out`: a protocol line is built without a temporary copy.
void base64_encode_to(std::string& out, std::string_view bytes);
/// nullopt unless `text` is canonical padded base64 (whitespace is not allowed).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace crosscheck
