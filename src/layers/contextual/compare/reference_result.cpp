// reference_result.cpp: the reference host on a row as a client-shaped result (see
// reference_result.hpp).
#include "layers/contextual/compare/reference_result.hpp"

#include "layers/contextual/compare/scenario_verdict.hpp"
#include "layers/contextual/host/host.hpp"

namespace crosscheck::scenario {

RowResult reference_result(const canonical::CanonicalValidator& validator, const Row& row) {
  RowResult r;
  host::Applied a = host::apply(validator, row.request(), row.response());
  if (a.rule == host::kRequestCanonical) {
    r.status = "inapplicable";
    r.error = a.message;
    return r;
  }
  r.actual = a.result;
  r.error = a.accepted ? a.message : a.rule + ": " + a.message;
  r.report_row = json::Value::object();
  r.report_row.add("id", json::Value::string(row.id));
  r.status = "passed";
  r.report_row.add("status", json::Value::string(r.status));
  r.report_row.add("actual", a.result);
  if (!a.host_accepted) {
    r.report_row.add("sdkAccepted", json::Value::boolean(true));
    r.report_row.add("hostAccepted", json::Value::boolean(false));
    r.report_row.add("rejectionLayer", json::Value::string("host-input-schema"));
  }
  if (!a.rule.empty()) r.notes.push_back("reference rule " + a.rule);
  if (!check_expectation(row, r).met) {
    r.status = "failed";
    *r.report_row.find("status") = json::Value::string(r.status);
  }
  return r;
}

}  // namespace crosscheck::scenario
