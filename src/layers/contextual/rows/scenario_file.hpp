// scenario_file.hpp: the one reader and the one writer of layer-3 scenario files, the format of the
// upstream cross-language adapter contract v1 (schemas/scenario-file.schema.json):
//   {"version": 1, "scenarios": [{id, request, response, expected | expectError, hostExpected?,
//   tags?, barrier?, ...}]}
//
// Rows are kept exactly: each keeps its own bytes and the spans of its request and response inside
// them, so a scripted response reaches a client byte for byte as the file spells it (invalid ones
// included) and a rewritten file differs only where crosscheck changed something.
//
// Bad input (exit 2 for the commands): a file that is not JSON, breaks the schema, has duplicate
// ids, a row with both expected and expectError, or a request whose id or params.event.id is not
// the row id. The error names the file, the row and the field.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"
#include "layers/contextual/rows/raw_spans.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario {

struct Row {
  std::string id;
  std::size_t index = 0;             ///< position in its file
  json::Value value;                 ///< the whole row
  std::string raw;                   ///< the row's exact bytes
  Span request_span, response_span;  ///< inside `raw`

  std::string_view raw_request() const { return request_span.of(raw); }
  std::string_view raw_response() const { return response_span.of(raw); }
  const json::Value& request() const { return *value.find("request"); }
  const json::Value& response() const { return *value.find("response"); }
  const json::Value* expected() const { return value.find("expected"); }
  const json::Value* host_expected() const { return value.find("hostExpected"); }
  bool expect_error() const;
  std::vector<std::string> tags() const;

  /// Replaces the request (compact JSON text for it); every other byte of the row stays.
  void replace_request(const json::Value& request);
};

struct ScenarioFile {
  std::string path;
  std::vector<Row> rows;
  const Row* find(std::string_view id) const;
};

struct FormatError {
  std::string file;
  std::string where;    ///< "scenarios[3] (id \"x\"): field 'request.id'", or "the document"
  std::string message;  ///< what was expected there
  std::string text() const { return file + ": " + where + ": " + message; }
};

/// Reads and checks a scenario file.
Result<ScenarioFile, FormatError> read_scenario_file(const std::string& path);
/// The same on text already in memory; `path` only names it in errors.
Result<ScenarioFile, FormatError> parse_scenario_text(std::string_view text, const std::string& path);

/// The text of a scenario file holding `rows` in this order, each with its exact bytes.
std::string scenario_file_text(const std::vector<const Row*>& rows);
/// Writes scenario_file_text(rows) to `path` atomically. Throws Fatal naming the file.
void write_scenario_file(const std::string& path, const std::vector<const Row*>& rows);

/// The scripted response as one NDJSON line (without its '\n'): the row's bytes with LF and CR
/// removed. Both can only be whitespace between tokens in JSON text (inside strings they must be
/// escaped), so every token stays byte-identical.
std::string response_line(const Row& row);

}  // namespace crosscheck::scenario
