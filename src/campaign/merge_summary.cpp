// merge_summary.cpp: summary.json of a merged folder (see merge_summary.hpp).
#include "campaign/merge_summary.hpp"

#include <algorithm>

#include "campaign/merge_io.hpp"

namespace crosscheck::campaign::merging {

json::Value merge_summary(const std::vector<std::pair<std::string, json::Value>>& sources,
                          std::size_t findings, std::size_t buckets,
                          const std::optional<json::Value>& coverage,
                          std::map<std::string, std::set<std::string>> bucket_roots) {
  json::Value out = json::Value::object();
  for (const auto& [key, record] : sources) {
    const json::Value* s = record.find("summary");
    if (s && s->is_object() && !s->members().empty()) {
      out = *s;
      break;
    }
  }
  std::map<std::string, std::uint64_t> counters;
  std::map<std::string, std::map<std::string, std::uint64_t>> tables;
  const char* counter_keys[] = {"generated", "sent", "divergentInputs", "contractInputs"};
  const char* table_keys[] = {"byClass", "byRoot", "byImplementation"};
  std::optional<std::uint64_t> exit_code;
  const json::Value* longest = nullptr;
  bool interrupted = false;
  json::Value shards = json::Value::array(), incomplete = json::Value::array();
  for (const auto& [key, record] : sources) {
    shards.push(json::Value::string(key));
    const json::Value* s = record.find("summary");
    if (!s || !s->is_object() || !s->find("format")) incomplete.push(json::Value::string(key));
    if (!s || !s->is_object()) continue;
    for (const char* k : counter_keys) counters[k] += number_or_zero(s->find(k));
    for (const char* k : table_keys) {
      const json::Value* t = s->find(k);
      if (!t || !t->is_object()) continue;
      for (const auto& m : t->members()) tables[k][m.key] += number_or_zero(&m.value);
    }
    if (const json::Value* e = s->find("exitCode"); e && e->is_number())
      exit_code = std::max(exit_code.value_or(0), number_or_zero(e));
    // The shards ran side by side: the merged run took as long as the longest one.
    if (const json::Value* e = s->find("elapsed"); e && e->is_number())
      if (!longest || double_or_zero(e) > double_or_zero(longest)) longest = e;
    if (const json::Value* i = s->find("interrupted"); i && i->is_bool() && i->as_bool()) interrupted = true;
    // Every root each bucket was seen on, in any run (a bucket's files are capped, so not all show).
    if (const json::Value* br = s->find("bucketRoots"); br && br->is_object()) {
      for (const auto& m : br->members()) {
        if (!m.value.is_array()) continue;
        for (const auto& r : m.value.items())
          if (r.is_string()) bucket_roots[m.key].insert(r.string_value());
      }
    }
  }
  for (const char* k : counter_keys) set_member(out, k, number(counters[k]));
  set_member(out, "buckets", number(buckets));
  for (const char* k : table_keys) {
    json::Value t = json::Value::object();
    for (const auto& [name, n] : tables[k]) t.add(name, number(n));
    set_member(out, k, std::move(t));
  }
  if (coverage) {
    set_member(out, "coveragePercent", *coverage->find("percent"));
    if (out.find("coverage")) {
      json::Value c = json::Value::object();
      for (const char* k : {"tracked", "reachedAccepted", "reachedRejected", "possibleAccepted",
                            "possibleRejected", "percent", "percentAll"})
        c.add(k, *coverage->find(k));
      set_member(out, "coverage", std::move(c));
    }
  }
  json::Value roots = json::Value::object();
  for (const auto& [bucket, names] : bucket_roots) {
    json::Value list = json::Value::array();
    for (const auto& r : names) list.push(json::Value::string(r));
    roots.add(bucket, std::move(list));
  }
  set_member(out, "bucketRoots", std::move(roots));
  if (out.find("findings")) set_member(out, "findings", number(findings));
  if (longest) set_member(out, "elapsed", *longest);
  if (out.find("interrupted")) set_member(out, "interrupted", json::Value::boolean(interrupted));
  if (exit_code) set_member(out, "exitCode", number(*exit_code));
  // Readers (crosscheck report) know this format; runs merged without a summary are named.
  set_member(out, "format", json::Value::string("crosscheck-summary/1"));
  json::Value merged = json::Value::object();
  merged.add("runs", number(sources.size()));
  merged.add("shards", std::move(shards));
  merged.add("withoutSummary", std::move(incomplete));
  set_member(out, "merged", std::move(merged));
  return out;
}

}  // namespace crosscheck::campaign::merging
