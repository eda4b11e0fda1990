// scenario_support.cpp: the reference host's result on a row, and client selection.
#include "cli/scenario_support.hpp"

#include <iostream>

#include "cli/command.hpp"
#include "host/host.hpp"
#include "scenario/verdict.hpp"

namespace crosscheck::cli {

scenario::RowResult reference_result(const canonical::CanonicalValidator& validator,
                                     const scenario::Row& row) {
  scenario::RowResult r;
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
  if (!scenario::check_expectation(row, r).met) {
    r.status = "failed";
    *r.report_row.find("status") = json::Value::string(r.status);
  }
  return r;
}

std::vector<scenario::ClientSpec> pick_clients(const std::string& config_path,
                                               const std::vector<std::string>& names, bool servers) {
  std::string path = config_path.empty() ? scenario::default_client_config_path() : config_path;
  auto all = scenario::load_client_config(path, scenario::checkout_dir());
  if (!all.ok()) throw Fatal(all.error());
  auto selected = scenario::select_clients(all.value(), names);
  if (!selected.ok()) throw Fatal(selected.error());
  std::vector<scenario::ClientSpec> out;
  for (auto& c : selected.value()) {
    if (servers && !c.unavailable && c.server_argv.empty())
      c.unavailable = "it names no server command (serverArgv, or the adapterJson's server)";
    if (c.unavailable) {
      if (!names.empty())
        throw Fatal("client '" + c.name + "' is unavailable: " + *c.unavailable, kExitAdapter);
      std::cerr << "WARNING: client '" << c.name << "' is unavailable: " << *c.unavailable << "\n";
      continue;
    }
    out.push_back(std::move(c));
  }
  if (out.empty()) throw Fatal("no client is available (see crosscheck scenarios run --help)", kExitAdapter);
  return out;
}

}  // namespace crosscheck::cli
