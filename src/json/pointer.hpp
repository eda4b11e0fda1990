// pointer.hpp: RFC 6901 JSON Pointer tokens, shared by the loader, the decoder and the comparator.
#pragma once

#include <string>
#include <string_view>

namespace crosscheck::json {

/// `key` as one JSON Pointer token: "~" -> "~0", "/" -> "~1".
std::string pointer_token(std::string_view key);

/// Appends "/" and the escaped `key` to `path` (no temporary: the decoder builds paths on hot paths).
void append_pointer_token(std::string& path, std::string_view key);

}  // namespace crosscheck::json
