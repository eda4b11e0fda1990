// run_file.cpp: reading and writing RUN/run.json (see run_file.hpp).
#include "run/run_file.hpp"

#include "json/write.hpp"
#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "util/result.hpp"

namespace crosscheck::run {
namespace {

constexpr const char* kFormatKey = "format";
constexpr const char* kSeedKey = "seed";
constexpr const char* kRootsKey = "roots";
constexpr const char* kImplementationsKey = "implementations";
constexpr const char* kSchemaKey = "schema";
constexpr const char* kShardKey = "shard";
constexpr const char* kDeterministicKey = "deterministic";
constexpr const char* kCommandKey = "command";

json::Value roots_json(const std::vector<std::string>& roots) {
  json::Value a = json::Value::array();
  for (const auto& r : roots) a.push(json::Value::string(r));
  return a;
}

}  // namespace

std::set<std::string> RunConfig::implementation_names() const {
  std::set<std::string> out;
  std::string_view list = implementations;
  while (!list.empty()) {
    std::size_t comma = list.find(',');
    out.emplace(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return out;
}

std::string RunConfig::configuration_difference(const RunConfig& other) const {
  std::string diff;
  auto differ = [&](const char* key, const std::string& mine, const std::string& theirs) {
    if (mine != theirs) diff += (diff.empty() ? "" : "; ") + std::string(key) + " " + mine + " vs " + theirs;
  };
  differ(kImplementationsKey, json::write(json::Value::string(implementations)),
         json::write(json::Value::string(other.implementations)));
  differ(kRootsKey, json::write(roots_json(roots)), json::write(roots_json(other.roots)));
  differ(kSchemaKey, json::write(json::Value::string(schema)),
         json::write(json::Value::string(other.schema)));
  return diff;
}

json::Value to_json(const RunConfig& c) {
  json::Value f = json::Value::object();
  f.add(kFormatKey, json::Value::string(kRunFormat));
  f.add(kSeedKey, json::Value::number(c.seed));
  f.add(kRootsKey, roots_json(c.roots));
  f.add(kImplementationsKey, json::Value::string(c.implementations));
  f.add(kSchemaKey, json::Value::string(c.schema));
  // Only when used, so that the run.json of an unsharded, feedback-driven run keeps its old form.
  if (c.shard) f.add(kShardKey, json::Value::string(*c.shard));
  if (c.deterministic) f.add(kDeterministicKey, json::Value::boolean(true));
  if (!c.command.empty()) f.add(kCommandKey, json::Value::string(c.command));
  return f;
}

void write_run_config(const std::filesystem::path& run_dir, const RunConfig& c) {
  write_json_file(run_dir / kRunFile, to_json(c));
}

std::optional<RunConfig> read_run_config(const std::filesystem::path& run_dir) {
  const auto file = run_dir / kRunFile;
  json::Value o = read_json_object(file);
  if (o.is_null()) return std::nullopt;
  require_format(file, o, kRunFormat);
  require_schema(file, o, kRunSchema);
  RunConfig c;
  c.seed = o.find(kSeedKey)->number_text();
  for (const auto& r : o.find(kRootsKey)->items()) c.roots.push_back(r.string_value());
  c.implementations = o.find(kImplementationsKey)->string_value();
  c.schema = o.find(kSchemaKey)->string_value();
  if (const json::Value* s = o.find(kShardKey)) c.shard = s->string_value();
  c.deterministic = o.find(kDeterministicKey) != nullptr;
  if (const json::Value* cmd = o.find(kCommandKey)) c.command = cmd->string_value();
  return c;
}

}  // namespace crosscheck::run
