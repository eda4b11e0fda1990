// adapter_config.cpp: reading adapters/default.json and --adapter specs.
#include "exec/adapter_config.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "util/config_command.hpp"

namespace crosscheck::exec {

std::string repository_root() { return CROSSCHECK_SOURCE_DIR; }

std::string default_adapter_config_path() { return repository_root() + "/adapters/default.json"; }

Result<std::vector<AdapterConfig>, std::string> load_adapter_config(const std::string& path,
                                                                    const std::string& root_dir) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": cannot be read";
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = json::parse(ss.str());
  if (!parsed.ok()) return path + ": not JSON: " + parsed.error().message();
  // The shipped schema is the definition of the file: every field is typed and none is unknown, so
  // a misspelt field stops the run instead of being ignored.
  if (auto bad = json::shipped_schema("adapter-config.schema.json").validate(parsed.value())) {
    return path + ": at " + (bad->pointer.empty() ? std::string("\"\"") : bad->pointer) + " (" +
           json::describe_location(parsed.value(), bad->pointer) + "): " + bad->message +
           " (schemas/adapter-config.schema.json)";
  }
  std::vector<AdapterConfig> out;
  for (const json::Value& e : parsed.value().items()) {
    AdapterConfig c;
    c.spec.name = e.find("name")->string_value();
    for (const auto& a : e.find("argv")->items())
      c.spec.argv.push_back(expand_config_text(a.string_value(), root_dir));
    if (const json::Value* cwd = e.find("cwd")) {
      std::string d = expand_config_text(cwd->string_value(), root_dir);
      c.spec.cwd =
          std::filesystem::path(d).is_absolute() ? d : (std::filesystem::path(root_dir) / d).string();
    }
    if (const json::Value* env = e.find("env")) {
      for (const auto& m : env->members())
        c.spec.env[m.key] = expand_config_text(m.value.string_value(), root_dir);
    }
    if (const json::Value* b = e.find("build")) c.build = b->string_value();
    if (const json::Value* req = e.find("requires")) {
      for (const auto& r : req->items()) c.requires_env.push_back(r.string_value());
    }
    if (const json::Value* d = e.find("default")) c.default_on = d->as_bool();
    if (std::string var = first_unset_variable(c.requires_env); !var.empty()) {
      c.unavailable =
          var + " is not set (it names the SDK checkout this adapter builds against; see docs/sdks.md)";
    }
    if (!c.unavailable && !program_exists(c.spec.argv[0])) {
      c.unavailable = "program not found: " + c.spec.argv[0] +
                      (c.build.empty() ? "" : " (build it with: " + c.build + ")");
    }
    out.push_back(std::move(c));
  }
  return out;
}

Result<AdapterConfig, std::string> parse_adhoc_adapter(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return "--adapter '" + text + "': expected NAME='COMMAND ARGS'";
  AdapterConfig c;
  c.spec.name = text.substr(0, eq);
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = eq + 1; i < text.size(); ++i) {
    char ch = text[i];
    if (quote) {
      if (ch == quote)
        quote = 0;
      else
        word += ch;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
      in_word = true;
    } else if (ch == ' ' || ch == '\t') {
      if (in_word) c.spec.argv.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += ch;
      in_word = true;
    }
  }
  if (quote) return "--adapter '" + text + "': unterminated quote";
  if (in_word) c.spec.argv.push_back(word);
  if (c.spec.argv.empty()) return "--adapter '" + text + "': no command after '='";
  c.default_on = true;
  if (!program_exists(c.spec.argv[0])) c.unavailable = "program not found: " + c.spec.argv[0];
  return c;
}

Result<std::vector<AdapterConfig>, std::string> select_adapters(const std::vector<AdapterConfig>& all,
                                                                const std::vector<std::string>& names,
                                                                const std::vector<AdapterConfig>& adhoc) {
  std::vector<AdapterConfig> out;
  if (names.empty()) {
    for (const auto& c : all) {
      if (c.default_on) out.push_back(c);
    }
  } else {
    for (const auto& n : names) {
      const AdapterConfig* found = nullptr;
      for (const auto& c : all) {
        if (c.spec.name == n) found = &c;
      }
      if (!found) {
        std::string known;
        for (const auto& c : all) known += (known.empty() ? "" : ", ") + c.spec.name;
        return "unknown adapter '" + n + "' (known: " + known + ")";
      }
      out.push_back(*found);
    }
  }
  for (const auto& c : adhoc) out.push_back(c);
  return out;
}

}  // namespace crosscheck::exec
