// server_config.cpp: serve-scenarios configs.
#include "interop/server_config.hpp"

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "util/file.hpp"

namespace crosscheck::scenario {

Result<ServerConfig, std::string> read_server_config(const std::string& path) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return path + ": cannot be read";
  auto parsed = json::parse(*bytes);
  if (!parsed.ok()) return path + ": not JSON: " + parsed.error().message();
  const json::Value& v = parsed.value();
  if (auto e = json::shipped_schema("scenario-server-config.schema.json").validate(v))
    return path + ": " + json::describe_location(v, e->pointer) + ": " + e->message;
  ServerConfig c;
  c.scenario_file = v.find("scenarioFile")->string_value();
  if (const json::Value* r = v.find("readinessFile")) c.readiness_file = r->string_value();
  if (const json::Value* r = v.find("receiptFile")) c.receipt_file = r->string_value();
  return c;
}

void write_server_config(const std::string& path, const ServerConfig& c) {
  json::Value v = json::Value::object();
  v.add("transport", json::Value::string("stdio"));
  v.add("scenarioFile", json::Value::string(c.scenario_file));
  if (!c.readiness_file.empty()) v.add("readinessFile", json::Value::string(c.readiness_file));
  if (!c.receipt_file.empty()) v.add("receiptFile", json::Value::string(c.receipt_file));
  json::Value auth = json::Value::object();
  auth.add("mode", json::Value::string("none"));
  v.add("auth", std::move(auth));
  run::write_file_atomically(path, json::write(v, {.indent = 2}) + "\n");
}

}  // namespace crosscheck::scenario
