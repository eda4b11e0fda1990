// client_report.hpp: the one reader of an interop client's report (schemas/client-report.schema.json):
// {language, results: [{id, status, actual, error?, sdkAccepted?, hostAccepted?, rejectionLayer?}]}.
#pragma once

#include <string>
#include <vector>

#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario {

struct ReportedResult {
  std::string id;
  std::string status;  ///< passed | failed | unsupported | inapplicable
  json::Value actual;  ///< null when the client derived nothing
  std::string error;   ///< "" when absent
  json::Value row;     ///< the whole result object as written
};

struct ClientReport {
  std::string language;
  std::vector<ReportedResult> results;
};

/// Error (one line naming the file and the field): missing, not JSON, or breaks the schema.
Result<ClientReport, std::string> read_client_report(const std::string& path);

}  // namespace crosscheck::scenario
