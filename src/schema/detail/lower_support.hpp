// lower_support.hpp: what the lowering's parts share: the keyword lists, the failure they throw,
// pointers and keys into the schema documents. Internal to schema.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/value.hpp"
#include "schema/loader.hpp"

namespace crosscheck::schema::lowering {

bool is_extension(std::string_view key);
bool is_annotation(std::string_view key);
/// Validation-only keywords: accepted, never enforced by structural parsing.
bool is_validation(std::string_view key);
bool is_structural(std::string_view key);
bool is_type_name(std::string_view name);

/// Thrown inside the builder, turned into the SchemaError result by build_ir.
struct Failure {
  SchemaError error;
};

[[noreturn]] void fail(std::string document, std::string pointer, std::string expected);

std::string child(const std::string& pointer, std::string_view token);
std::string quoted(std::string_view text);
/// "<document path>#<JSON pointer>", the key of a node in the schema set.
std::string key_of(std::string_view path, std::string_view pointer);

/// Members of an object by key, the last duplicate winning (as everywhere in AHP).
std::vector<std::pair<std::string, const json::Value*>> last_members(const json::Value& object);

/// The node at `pointer` (RFC 6901, already unescaped from any URI encoding), or nullptr.
const json::Value* find_node(const json::Value& root, std::string_view pointer);

}  // namespace crosscheck::schema::lowering
