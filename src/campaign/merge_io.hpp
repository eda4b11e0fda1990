// merge_io.hpp: the small readers and writers crosscheck merge shares between its files: a file read
// or parsed with a Fatal naming it, and JSON members and numbers read leniently (a count that is
// missing or not a number is 0).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "json/value.hpp"

namespace crosscheck::campaign::merging {

/// The bytes of `p`; Fatal (exit 2) naming it when it cannot be read.
std::string read_file(const std::filesystem::path& p);
/// `p` parsed as JSON; Fatal naming it when it cannot be read or is not JSON.
json::Value parse_file(const std::filesystem::path& p);
/// The string member `key` of `o`, or nullptr.
const std::string* string_member(const json::Value& o, std::string_view key);
/// Replaces the member `key` (or adds it).
void set_member(json::Value& o, const std::string& key, json::Value value);
json::Value number(std::uint64_t n);
std::uint64_t number_or_zero(const json::Value* v);
double double_or_zero(const json::Value* v);
bool ends_with(const std::string& s, std::string_view suffix);
/// `v` written with `indent`, and a newline.
std::string pretty(const json::Value& v, int indent);

}  // namespace crosscheck::campaign::merging
