// scenario_file.cpp: reading, checking and writing scenario files.
#include "layers/contextual/rows/scenario_file.hpp"

#include <map>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "util/file.hpp"

namespace crosscheck::scenario {
namespace {

const char* kSchema = "scenario-file.schema.json";

std::string row_pointer(std::size_t i, const char* rest = "") {
  return "/scenarios/" + std::to_string(i) + rest;
}

/// A string member as a string, or "" (the schema has already checked the types).
std::string text_of(const json::Value* v) { return v && v->is_string() ? v->string_value() : std::string(); }

/// A row with both expected and expectError, found on any document (before the schema, which
/// could only name the row, not the field).
std::optional<std::string> both_expectations(const json::Value& doc) {
  const json::Value* rows = doc.is_object() ? doc.find("scenarios") : nullptr;
  if (!rows || !rows->is_array()) return std::nullopt;
  for (std::size_t i = 0; i < rows->items().size(); ++i) {
    const json::Value& row = rows->items()[i];
    if (row.is_object() && row.contains("expected") && row.contains("expectError"))
      return row_pointer(i, "/expectError");
  }
  return std::nullopt;
}

/// The id rules the schema cannot state: unique ids, and the request correlated with its row.
std::optional<std::pair<std::string, std::string>> check_rows(const json::Value& doc) {
  const json::Value* rows = doc.find("scenarios");
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < rows->items().size(); ++i) {
    const json::Value& row = rows->items()[i];
    std::string id = text_of(row.find("id"));
    auto [it, fresh] = seen.emplace(id, i);
    if (!fresh)
      return std::pair{row_pointer(i, "/id"), "duplicate id " + json::quote(id) + " (first at scenarios[" +
                                                  std::to_string(it->second) + "])"};
    const json::Value& request = *row.find("request");
    std::string request_id = text_of(request.find("id"));
    if (request_id != id)
      return std::pair{row_pointer(i, "/request/id"),
                       "expected the row id " + json::quote(id) + ", got " + json::quote(request_id)};
    std::string event_id = text_of(request.find("params")->find("event")->find("id"));
    if (event_id != id)
      return std::pair{row_pointer(i, "/request/params/event/id"),
                       "expected the row id " + json::quote(id) + ", got " + json::quote(event_id)};
  }
  return std::nullopt;
}

}  // namespace

bool Row::expect_error() const {
  const json::Value* e = value.find("expectError");
  return e && e->is_bool() && e->as_bool();
}

std::vector<std::string> Row::tags() const {
  std::vector<std::string> out;
  if (const json::Value* t = value.find("tags"); t && t->is_array()) {
    for (const auto& tag : t->items()) {
      if (tag.is_string()) out.push_back(tag.string_value());
    }
  }
  return out;
}

void Row::replace_request(const json::Value& request) {
  std::string text = json::write(request);
  std::size_t old_length = request_span.end - request_span.begin;
  raw = raw.substr(0, request_span.begin) + text + raw.substr(request_span.end);
  request_span.end = request_span.begin + text.size();
  if (response_span.begin > request_span.begin) {
    response_span.begin = response_span.begin - old_length + text.size();
    response_span.end = response_span.end - old_length + text.size();
  }
  for (auto& m : value.members()) {
    if (m.key == "request") m.value = request;
  }
}

const Row* ScenarioFile::find(std::string_view id) const {
  for (const auto& r : rows) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

Result<ScenarioFile, FormatError> parse_scenario_text(std::string_view text, const std::string& path) {
  auto parsed = json::parse(text);
  if (!parsed.ok()) return FormatError{path, "the document", "not JSON: " + parsed.error().message()};
  const json::Value& doc = parsed.value();
  const json::SchemaValidator& schema = json::shipped_schema(kSchema);
  auto fail = [&](const std::string& pointer, const std::string& message) {
    return FormatError{path, json::describe_location(doc, pointer), message};
  };
  if (auto both = both_expectations(doc))
    return fail(*both, "expected either 'expected' or 'expectError', not both");
  // The schema for shapes; then the id rules, once every row is known to have its ids.
  if (auto v = schema.validate(doc)) return fail(v->pointer, v->message);
  if (auto e = check_rows(doc)) return fail(e->first, e->second);

  ScenarioFile file;
  file.path = path;
  Span array = *member_span(text, document_span(text), "scenarios");
  std::vector<Span> spans = element_spans(text, array);
  const auto& items = doc.find("scenarios")->items();
  for (std::size_t i = 0; i < items.size(); ++i) {
    Row row;
    row.index = i;
    row.value = items[i];
    row.id = items[i].find("id")->string_value();
    row.raw = std::string(spans[i].of(text));
    Span whole{0, row.raw.size()};
    row.request_span = *member_span(row.raw, whole, "request");
    row.response_span = *member_span(row.raw, whole, "response");
    file.rows.push_back(std::move(row));
  }
  return file;
}

Result<ScenarioFile, FormatError> read_scenario_file(const std::string& path) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return FormatError{path, "the file", "cannot be read"};
  return parse_scenario_text(*bytes, path);
}

std::string scenario_file_text(const std::vector<const Row*>& rows) {
  std::string out = "{\"version\": 1, \"scenarios\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += rows[i]->raw;
    out += i + 1 < rows.size() ? ",\n" : "\n";
  }
  out += "]}\n";
  return out;
}

void write_scenario_file(const std::string& path, const std::vector<const Row*>& rows) {
  run::write_file_atomically(path, scenario_file_text(rows));
}

std::string response_line(const Row& row) {
  std::string out;
  for (char c : row.raw_response()) {
    if (c != '\n' && c != '\r') out += c;
  }
  return out;
}

}  // namespace crosscheck::scenario
