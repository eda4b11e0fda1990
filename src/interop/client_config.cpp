// client_config.cpp: adapters/clients.json and the checkouts' interop/adapter.json.
#include "interop/client_config.hpp"

#include <filesystem>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "util/config_command.hpp"
#include "util/file.hpp"

namespace crosscheck::scenario {
namespace {

namespace fs = std::filesystem;

/// The `client` command of a checkout's interop/adapter.json, or why there is none.
std::optional<std::string> read_adapter_json(const std::string& path, ClientSpec& c) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return path + " cannot be read";
  auto parsed = json::parse(*bytes);
  if (!parsed.ok()) return path + " is not JSON: " + parsed.error().message();
  const json::Value* client = parsed->is_object() ? parsed->find("client") : nullptr;
  if (!client || !client->is_array() || client->items().empty()) return path + " has no \"client\" command";
  for (const auto& a : client->items()) {
    if (!a.is_string()) return path + ": \"client\" must hold strings";
    c.argv.push_back(a.string_value());
  }
  if (const json::Value* server = parsed->find("server"); server && server->is_array()) {
    for (const auto& a : server->items()) {
      if (!a.is_string()) return path + ": \"server\" must hold strings";
      c.server_argv.push_back(a.string_value());
    }
  }
  // Commands run in the SDK folder (the contract's rule): the parent of interop/.
  c.cwd = fs::absolute(fs::path(path)).parent_path().parent_path().string();
  return std::nullopt;
}

}  // namespace

std::string checkout_dir() { return CROSSCHECK_SOURCE_DIR; }

std::string default_client_config_path() {
  return std::string(CROSSCHECK_SOURCE_DIR) + "/adapters/clients.json";
}

Result<std::vector<ClientSpec>, std::string> load_client_config(const std::string& path,
                                                                const std::string& root_dir) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return path + ": cannot be read";
  auto parsed = json::parse(*bytes);
  if (!parsed.ok()) return path + ": not JSON: " + parsed.error().message();
  const json::Value& doc = parsed.value();
  if (auto e = json::shipped_schema("client-config.schema.json").validate(doc))
    return path + ": " + json::describe_location(doc, e->pointer) + ": " + e->message;
  std::vector<ClientSpec> out;
  for (const auto& e : doc.find("clients")->items()) {
    ClientSpec c;
    c.name = e.find("name")->string_value();
    c.description = e.find("description")->string_value();
    for (const auto& r : e.find("requires")->items()) c.requires_env.push_back(r.string_value());
    if (const json::Value* b = e.find("build")) c.build = b->string_value();
    if (const json::Value* d = e.find("default")) c.default_on = d->as_bool();
    if (const json::Value* a = e.find("sdkAdapter")) c.sdk_adapter = a->string_value();
    if (std::string var = first_unset_variable(c.requires_env); !var.empty()) {
      c.unavailable = var + " is not set (it names the SDK checkout; see docs/scenarios.md)";
    }
    std::vector<std::string> missing;
    if (const json::Value* env = e.find("env")) {
      for (const auto& m : env->members())
        c.env[m.key] = expand_config_text(m.value.string_value(), root_dir, &missing);
    }
    if (const json::Value* argv = e.find("argv")) {
      for (const auto& a : argv->items())
        c.argv.push_back(expand_config_text(a.string_value(), root_dir, &missing));
      if (const json::Value* server = e.find("serverArgv")) {
        for (const auto& a : server->items())
          c.server_argv.push_back(expand_config_text(a.string_value(), root_dir, &missing));
      }
      std::string cwd =
          e.find("cwd") ? expand_config_text(e.find("cwd")->string_value(), root_dir, &missing) : ".";
      c.cwd = fs::path(cwd).is_absolute() ? cwd : (fs::path(root_dir) / cwd).lexically_normal().string();
    } else if (!c.unavailable) {
      std::string adapter = expand_config_text(e.find("adapterJson")->string_value(), root_dir, &missing);
      if (missing.empty()) {
        if (auto why = read_adapter_json(adapter, c)) c.unavailable = *why;
      }
    }
    if (!c.unavailable && !missing.empty()) c.unavailable = missing.front() + " is not set";
    if (!c.unavailable && !program_exists(c.argv.front()))
      c.unavailable = "program not found: " + c.argv.front() +
                      (c.build.empty() ? "" : " (build it with: " + c.build + ")");
    out.push_back(std::move(c));
  }
  return out;
}

Result<std::vector<ClientSpec>, std::string> select_clients(const std::vector<ClientSpec>& all,
                                                            const std::vector<std::string>& names) {
  std::vector<ClientSpec> out;
  if (names.empty()) {
    for (const auto& c : all) {
      if (c.default_on) out.push_back(c);
    }
    return out;
  }
  for (const auto& n : names) {
    const ClientSpec* found = nullptr;
    for (const auto& c : all) {
      if (c.name == n) found = &c;
    }
    if (!found) {
      std::string known;
      for (const auto& c : all) known += (known.empty() ? "" : ", ") + c.name;
      return "unknown client '" + n + "' (known: " + known + ")";
    }
    out.push_back(*found);
  }
  return out;
}

}  // namespace crosscheck::scenario
