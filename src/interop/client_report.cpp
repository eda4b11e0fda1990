// client_report.cpp: reading a client's report.
#include "interop/client_report.hpp"

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "util/file.hpp"

namespace crosscheck::scenario {

Result<ClientReport, std::string> read_client_report(const std::string& path) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return path + ": no report was written";
  auto parsed = json::parse(*bytes);
  if (!parsed.ok()) return path + ": the report is not JSON: " + parsed.error().message();
  const json::Value& doc = parsed.value();
  if (auto e = json::shipped_schema("client-report.schema.json").validate(doc))
    return path + ": " + json::describe_location(doc, e->pointer) + ": " + e->message;
  ClientReport report;
  report.language = doc.find("language")->string_value();
  for (const auto& r : doc.find("results")->items()) {
    ReportedResult out;
    out.id = r.find("id")->string_value();
    out.status = r.find("status")->string_value();
    out.actual = *r.find("actual");
    if (const json::Value* e = r.find("error"); e && e->is_string()) out.error = e->string_value();
    out.row = r;
    report.results.push_back(std::move(out));
  }
  return report;
}

}  // namespace crosscheck::scenario
