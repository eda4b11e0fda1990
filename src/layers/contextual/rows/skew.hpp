// skew.hpp: is a row's request canonical on the implementations' schema snapshot?
//
// A scenario file carries the snapshot it was written for: a file from an older snapshot may lack
// members a newer one requires (event.harness, required since a later draft). Such a row is skew:
// reported with what is missing, never compared, because every client would refuse the request
// before reaching the response under test.
//
// The check runs the request through crosscheck's structural decoder on the snapshot's IR
// (intercept_request root): its missing_required diagnostics are exactly the snapshot's `required`
// lists along the request. This is the seam for the canonical layer-2 validator: when it lands,
// RequestCheck::check uses it instead and reports its violations the same way.
#pragma once

#include <string>
#include <vector>

#include "json/value.hpp"
#include "schema/ir.hpp"

namespace crosscheck::scenario {

struct RequestProblem {
  std::string pointer;  ///< into the request
  std::string code;     ///< "missing_required", or another decoder code
  std::string message;
  /// "missing /params/event/harness" or "/params/event/tool: invalid_type (...)"
  std::string text() const;
};

class RequestCheck {
 public:
  /// Throws Fatal (exit 2) when the IR has no intercept_request root.
  explicit RequestCheck(const schema::Ir& ir);
  /// The request's error diagnostics on this snapshot; empty when it is canonical here.
  std::vector<RequestProblem> check(const json::Value& request) const;

 private:
  const schema::Ir& ir_;
  const schema::Root* root_;
};

/// `--complete-harness NAME/VERSION`: adds params.event.harness {name, version} to a request that
/// lacks it; returns false (request unchanged) when it has one or has no event object.
bool complete_harness(json::Value& request, const std::string& name, const std::string& version);

}  // namespace crosscheck::scenario
