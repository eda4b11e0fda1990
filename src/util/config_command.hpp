// config_command.hpp: the two rules every configured command (adapters/default.json,
// adapters/clients.json) follows: how "${ROOT}" and "${VAR}" expand, and when its program exists.
#pragma once

#include <string>
#include <vector>

namespace crosscheck {

/// "${ROOT}" becomes `root_dir`, "${VAR}" the environment variable's value. An unset or empty
/// variable expands to nothing and, when `missing` is given, is appended to it.
std::string expand_config_text(const std::string& text, const std::string& root_dir,
                               std::vector<std::string>* missing = nullptr);

/// An executable file at `program` when it holds a '/', otherwise one in a folder of $PATH.
bool program_exists(const std::string& program);

/// The first of `variables` that is unset or empty, or "" when every one is set.
std::string first_unset_variable(const std::vector<std::string>& variables);

}  // namespace crosscheck
