// state_file.cpp: reading and writing RUN/state.json (see state_file.hpp).
#include "run/state_file.hpp"

#include <cstdlib>

#include "run/json_file.hpp"
#include "run/layout.hpp"

namespace crosscheck::run {
namespace {

constexpr const char* kIterationsKey = "iterations";
constexpr const char* kGeneratedKey = "generated";
constexpr const char* kSentKey = "sent";
constexpr const char* kElapsedKey = "elapsed";
constexpr const char* kContextualBatchesKey = "contextualBatches";

}  // namespace

void write_state(const std::filesystem::path& run_dir, const RunPosition& p) {
  json::Value s = json::Value::object();
  s.add(kIterationsKey, count_value(p.iterations));
  s.add(kGeneratedKey, count_value(p.generated));
  s.add(kSentKey, count_value(p.sent));
  s.add(kElapsedKey, seconds_value(p.elapsed));
  if (p.contextual_batches) s.add(kContextualBatchesKey, count_value(p.contextual_batches));
  write_json_file(run_dir / kStateFile, s);
}

std::optional<RunPosition> read_state(const std::filesystem::path& run_dir) {
  const auto file = run_dir / kStateFile;
  json::Value o = read_json_object(file);
  if (o.is_null()) return std::nullopt;
  require_schema(file, o, kStateSchema);
  RunPosition p;
  p.iterations = count_of(*o.find(kIterationsKey));
  p.generated = count_of(*o.find(kGeneratedKey));
  p.sent = count_of(*o.find(kSentKey));
  p.elapsed = number_of(*o.find(kElapsedKey));
  if (const json::Value* b = o.find(kContextualBatchesKey)) p.contextual_batches = count_of(*b);
  return p;
}

}  // namespace crosscheck::run
