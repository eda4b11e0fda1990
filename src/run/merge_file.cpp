// merge_file.cpp: reading and writing RUN/merge.json (see merge_file.hpp).
#include "run/merge_file.hpp"

#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "util/result.hpp"

namespace crosscheck::run {
namespace {

constexpr const char* kFormatKey = "format";
constexpr const char* kSourcesKey = "sources";
constexpr const char* kKeyKey = "key";
constexpr const char* kPathKey = "path";
constexpr const char* kSeedKey = "seed";
constexpr const char* kShardKey = "shard";
constexpr const char* kSummaryKey = "summary";
// The counts of a run without a summary, as its state.json had them.
constexpr const char* kGeneratedKey = "generated";
constexpr const char* kSentKey = "sent";

}  // namespace

json::Value to_json(const MergeRecord& m) {
  json::Value o = json::Value::object();
  o.add(kFormatKey, json::Value::string(kMergeFormat));
  json::Value list = json::Value::array();
  for (const auto& s : m.sources) {
    json::Value r = json::Value::object();
    r.add(kKeyKey, json::Value::string(s.key));
    r.add(kPathKey, json::Value::string(s.path));
    r.add(kSeedKey, s.seed ? json::Value::number(*s.seed) : json::Value::null());
    r.add(kShardKey, s.shard ? json::Value::string(*s.shard) : json::Value::null());
    if (s.summary) {
      r.add(kSummaryKey, to_json(*s.summary));
    } else {
      json::Value counts = json::Value::object();
      counts.add(kGeneratedKey, count_value(s.generated));
      counts.add(kSentKey, count_value(s.sent));
      r.add(kSummaryKey, std::move(counts));
    }
    list.push(std::move(r));
  }
  o.add(kSourcesKey, std::move(list));
  return o;
}

void write_merge_record(const std::filesystem::path& run_dir, const MergeRecord& m) {
  write_json_file(run_dir / kMergeFile, to_json(m), 2);
}

std::optional<MergeRecord> read_merge_record(const std::filesystem::path& run_dir) {
  const auto file = run_dir / kMergeFile;
  json::Value o = read_json_object(file);
  if (o.is_null()) return std::nullopt;
  require_format(file, o, kMergeFormat);
  require_schema(file, o, kMergeSchema);
  MergeRecord m;
  const auto& sources = o.find(kSourcesKey)->items();
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const json::Value& r = sources[i];
    MergeSource s;
    s.key = r.find(kKeyKey)->string_value();
    if (const json::Value* p = r.find(kPathKey); p && p->is_string()) s.path = p->string_value();
    if (const json::Value* v = r.find(kSeedKey); v && v->is_number()) s.seed = v->number_text();
    if (const json::Value* v = r.find(kShardKey); v && v->is_string()) s.shard = v->string_value();
    const json::Value* summary = r.find(kSummaryKey);
    if (summary && summary->find(kFormatKey)) {
      auto read = summary_from_json(*summary);
      if (!read.ok())
        throw Fatal(file.string() + ": /sources/" + std::to_string(i) + "/summary" + read.error());
      s.summary = std::move(read.value());
      s.generated = s.summary->generated;
      s.sent = s.summary->sent;
    } else if (summary) {
      if (const json::Value* n = summary->find(kGeneratedKey)) s.generated = count_of(*n);
      if (const json::Value* n = summary->find(kSentKey)) s.sent = count_of(*n);
    }
    m.sources.push_back(std::move(s));
  }
  return m;
}

}  // namespace crosscheck::run
