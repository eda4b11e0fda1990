// client_config.cpp: adapters/clients.json and the checkouts' interop/adapter.json.
#include "scenario/client_config.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "util/file.hpp"

namespace crosscheck::scenario {
namespace {

namespace fs = std::filesystem;

/// "${ROOT}" and "${VAR}"; `missing` collects variables that are unset or empty.
std::string expand(const std::string& text, const std::string& root_dir, std::vector<std::string>* missing) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      std::size_t end = text.find('}', i);
      if (end != std::string::npos) {
        std::string var = text.substr(i + 2, end - i - 2);
        if (var == "ROOT") {
          out += root_dir;
        } else if (const char* v = std::getenv(var.c_str()); v && *v) {
          out += v;
        } else if (missing) {
          missing->push_back(var);
        }
        i = end;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

bool program_exists(const std::string& program) {
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

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
  // Commands run in the SDK folder (the contract's rule): the parent of interop/.
  c.cwd = fs::absolute(fs::path(path)).parent_path().parent_path().string();
  return std::nullopt;
}

}  // namespace

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
    for (const auto& var : c.requires_env) {
      const char* v = std::getenv(var.c_str());
      if (!v || !*v) {
        c.unavailable = var + " is not set (it names the SDK checkout; see docs/scenarios.md)";
        break;
      }
    }
    std::vector<std::string> missing;
    if (const json::Value* env = e.find("env")) {
      for (const auto& m : env->members()) c.env[m.key] = expand(m.value.string_value(), root_dir, &missing);
    }
    if (const json::Value* argv = e.find("argv")) {
      for (const auto& a : argv->items()) c.argv.push_back(expand(a.string_value(), root_dir, &missing));
      std::string cwd = e.find("cwd") ? expand(e.find("cwd")->string_value(), root_dir, &missing) : ".";
      c.cwd = fs::path(cwd).is_absolute() ? cwd : (fs::path(root_dir) / cwd).lexically_normal().string();
    } else if (!c.unavailable) {
      std::string adapter = expand(e.find("adapterJson")->string_value(), root_dir, &missing);
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
