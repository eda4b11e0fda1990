// run_state.cpp: run.json, state.json and coverage.json of a fuzz run (see run_state.hpp).
#include "campaign/run_state.hpp"

#include <cstdlib>
#include <filesystem>

#include "campaign/json_numbers.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "util/file.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

json::Value fingerprint(const schema::Ir& ir, const CampaignOptions& o) {
  json::Value f = json::Value::object();
  f.add("format", json::Value::string("crosscheck-fuzz/1"));
  f.add("seed", json::Value::number(std::to_string(o.seed)));
  json::Value roots = json::Value::array();
  for (const auto& r : o.roots) roots.push(json::Value::string(r));
  f.add("roots", std::move(roots));
  f.add("implementations", json::Value::string(o.adapters_fingerprint));
  f.add("schema", json::Value::string(ir.manifest_sha256.empty() ? ir.source_path : ir.manifest_sha256));
  // Only when used, so that the run.json of an unsharded, feedback-driven run keeps its old form.
  if (o.shard_count > 1)
    f.add("shard", json::Value::string(std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count)));
  if (o.deterministic) f.add("deterministic", json::Value::boolean(true));
  return f;
}

}  // namespace

bool open_run_folder(const schema::Ir& ir, const CampaignOptions& o) {
  std::error_code ec;
  fs::create_directories(fs::path(o.out) / "corpus", ec);
  if (ec) throw Fatal("cannot create the output folder " + o.out + ": " + ec.message());
  json::Value mine = fingerprint(ir, o);
  fs::path run_file = fs::path(o.out) / "run.json";
  if (!fs::exists(run_file)) {
    run::write_file_atomically(run_file.string(), json::write(mine) + "\n");
    return false;
  }
  auto text = read_file_bytes(run_file);
  auto theirs = json::parse(text.value_or(""));
  if (!text || !theirs.ok() || json::write(theirs.value()) != json::write(mine)) {
    throw Fatal("the output folder " + o.out + " belongs to a run with a different configuration (" +
                run_file.string() + " says " +
                (theirs.ok() ? json::write(theirs.value()) : std::string("nothing readable")) +
                "; this run is " + json::write(mine) +
                "): use another --out, or the same seed, roots, adapters and --shard to resume");
  }
  return true;
}

RunPosition read_position(const std::string& folder) {
  RunPosition p;
  auto state = json::parse(read_file_bytes(fs::path(folder) / "state.json").value_or(""));
  if (!state.ok()) return p;
  if (const json::Value* it = state.value().find("iterations"); it && it->is_number()) {
    p.iterations = std::stoull(it->number_text());
  }
  if (const json::Value* e = state.value().find("elapsed"); e && e->is_number()) {
    p.elapsed = std::strtod(e->number_text().c_str(), nullptr);
  }
  if (const json::Value* v = state.value().find("generated"); v && v->is_number()) {
    p.generated = std::stoull(v->number_text());
  }
  if (const json::Value* v = state.value().find("sent"); v && v->is_number()) {
    p.sent = std::stoull(v->number_text());
  }
  return p;
}

void read_coverage(const std::string& folder, SchemaCoverage& coverage) {
  auto cov = json::parse(read_file_bytes(fs::path(folder) / "coverage.json").value_or(""));
  if (cov.ok()) coverage.merge_json(cov.value());
}

void save_state(const std::string& folder, const RunPosition& position, const SchemaCoverage& coverage) {
  json::Value s = json::Value::object();
  s.add("iterations", json_count(position.iterations));
  s.add("generated", json_count(position.generated));
  s.add("sent", json_count(position.sent));
  s.add("elapsed", json_rate(position.elapsed));
  run::write_file_atomically((fs::path(folder) / "state.json").string(), json::write(s) + "\n");
  json::WriteOptions pretty;
  pretty.indent = 1;
  run::write_file_atomically((fs::path(folder) / "coverage.json").string(),
                             json::write(coverage.to_json(), pretty) + "\n");
}

}  // namespace crosscheck::campaign
