// finding_writer.cpp: layer-3 finding files.
#include "scenario/finding_writer.hpp"

#include <filesystem>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"
#include "report/escape.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "scenario/server_admission.hpp"
#include "schema/sha256.hpp"
#include "util/file.hpp"

namespace crosscheck::scenario {
namespace {

json::Value strings(const std::vector<std::string>& items) {
  json::Value out = json::Value::array();
  for (const auto& s : items) out.push(json::Value::string(s));
  return out;
}

const char* answer_name(Answer a) {
  return a == Answer::kDerived ? "derived" : a == Answer::kRejected ? "rejected" : "none";
}

// The envelope every layer-3 finding shares, its entries, and the file pair written atomically.
std::string write_envelope(const std::string& out_dir, const Row& row, const Difference& d,
                           json::Value entries, const FindingContext& context, const char* replay_flags) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(out_dir) / "findings";
  fs::create_directories(dir);
  std::string name = d.cls + "-" + schema::sha256_hex(d.bucket + "\n" + row.raw).substr(0, 16);
  std::string replay_file = (dir / (name + ".scenario.json")).string();
  write_scenario_file(replay_file, {&row});
  std::string clients;
  for (const auto& c : context.clients) clients += (clients.empty() ? "" : ",") + c;
  json::Value f = json::Value::object();
  f.add("format", json::Value::string("crosscheck-scenario-finding/1"));
  f.add("class", json::Value::string(d.cls));
  f.add("bucket", json::Value::string(d.bucket));
  f.add("summary", json::Value::string(d.summary));
  f.add("keys", strings(d.keys));
  if (!d.implementation_defined.empty()) f.add("implementationDefined", strings(d.implementation_defined));
  f.add("scenarioFile", json::Value::string(context.scenario_file));
  f.add("scenarioId", json::Value::string(row.id));
  f.add("scenario", row.value);
  f.add("rowBytes", json::Value::string(row.raw));
  f.add("clients", std::move(entries));
  f.add("replay", json::Value::string(std::string("crosscheck scenarios run ") + replay_flags + "--clients " +
                                      report::shell_quote(clients) + " " + report::shell_quote(replay_file)));
  std::string path = (dir / (name + ".json")).string();
  run::write_file_atomically(path, json::write(f, {.indent = 2}) + "\n");
  return path;
}

}  // namespace

std::string write_admission_finding(const std::string& out_dir, const Row& row, const Difference& d,
                                    const AdmissionResults& results, const FindingContext& context) {
  json::Value list = json::Value::array();
  for (const auto& [name, a] : results) {
    json::Value c = json::Value::object();
    c.add("name", json::Value::string(name));
    c.add("status", json::Value::string(a->status));
    c.add("answer",
          json::Value::string(a->status == "admitted" || a->status == "refused" ? a->status : "none"));
    c.add("actual", json::Value::null());
    c.add("error", json::Value::string(a->error));
    if (!a->answer.empty()) c.add("serverAnswer", json::Value::string(a->answer));
    c.add("notes", strings(a->notes));
    if (!a->session_dir.empty()) c.add("batch", json::Value::string(a->session_dir));
    list.push(std::move(c));
  }
  return write_envelope(out_dir, row, d, std::move(list), context, "--servers ");
}

std::string write_finding(const std::string& out_dir, const Row& row, const Difference& d,
                          const ClientResults& results, const FindingContext& context) {
  json::Value list = json::Value::array();
  for (const auto& [client, r] : results) {
    json::Value c = json::Value::object();
    c.add("name", json::Value::string(client));
    c.add("status", json::Value::string(r->status));
    c.add("answer", json::Value::string(answer_name(answer_of(*r))));
    c.add("actual", r->actual);
    c.add("error", json::Value::string(r->error));
    ExpectationVerdict v = check_expectation(row, *r);
    if (v.applicable) c.add("expectation", json::Value::string(v.text()));
    c.add("reportRow", r->report_row);
    c.add("notes", strings(r->notes));
    if (!r->batch_dir.empty()) c.add("batch", json::Value::string(r->batch_dir));
    list.push(std::move(c));
  }
  return write_envelope(out_dir, row, d, std::move(list), context, "");
}

Result<json::Value, std::string> read_finding(const std::string& path) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return path + ": cannot be read";
  auto parsed = json::parse(*bytes);
  if (!parsed.ok()) return path + ": not JSON: " + parsed.error().message();
  if (auto e = json::shipped_schema("scenario-finding.schema.json").validate(parsed.value()))
    return path + ": " + json::describe_location(parsed.value(), e->pointer) + ": " + e->message;
  return std::move(parsed.value());
}

}  // namespace crosscheck::scenario
