// skew.cpp: requests against the snapshot's IR.
#include "layers/contextual/rows/skew.hpp"

#include "decoder/decoder.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario {

std::string RequestProblem::text() const {
  if (code == "missing_required") return "missing " + pointer;
  return (pointer.empty() ? "the request" : pointer) + ": " + code + " (" + message + ")";
}

RequestCheck::RequestCheck(const schema::Ir& ir) : ir_(ir), root_(ir.find_root("intercept_request")) {
  if (!root_) throw Fatal("the schema has no intercept_request root: it cannot check scenario requests");
}

std::vector<RequestProblem> RequestCheck::check(const json::Value& request) const {
  decoder::Decoder decoder(ir_);
  decoder::DecodeResult result = decoder.check(*root_, request);
  std::vector<RequestProblem> out;
  for (const auto& d : result.diagnostics) {
    // A union whose known variant has an invalid body repeats what its branch already said.
    if (d.severity != decoder::Severity::kError || d.code == "invalid_known_variant") continue;
    out.push_back(RequestProblem{d.path, d.code, d.message});
  }
  return out;
}

bool complete_harness(json::Value& request, const std::string& name, const std::string& version) {
  json::Value* params = request.is_object() ? request.find("params") : nullptr;
  json::Value* event = params && params->is_object() ? params->find("event") : nullptr;
  if (!event || !event->is_object() || event->contains("harness")) return false;
  json::Value harness = json::Value::object();
  harness.add("name", json::Value::string(name));
  harness.add("version", json::Value::string(version));
  event->add("harness", std::move(harness));
  return true;
}

}  // namespace crosscheck::scenario
