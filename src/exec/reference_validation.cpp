// reference_validation.cpp: the reference's canonical verdicts, one validator per loaded schema.
#include "exec/reference_validation.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "canonical/canonical_validator.hpp"

namespace crosscheck::exec {

using core::kCanonicalLayer;
using core::kReferenceImplementation;
using core::kStructuralLayer;
using core::ValidateResult;
using core::Verdict;

namespace {

struct Loaded {
  std::optional<canonical::CanonicalValidator> validator;
  std::string error;  // why the schema source cannot be validated against
};

// Keyed by the IR's address: an IR lives as long as the ImplementationSet or serve-adapter using it.
const Loaded& loaded_for(const schema::Ir& ir) {
  static std::mutex mutex;
  static std::map<const schema::Ir*, std::unique_ptr<Loaded>> cache;
  std::lock_guard lock(mutex);
  auto& slot = cache[&ir];
  if (!slot) {
    slot = std::make_unique<Loaded>();
    auto v = canonical::CanonicalValidator::from_ir(ir);
    if (v.ok()) {
      slot->validator.emplace(std::move(v).value());
    } else {
      slot->error = v.error().text();
    }
  }
  return *slot;
}

}  // namespace

std::vector<std::string> reference_layers() { return {kStructuralLayer, kCanonicalLayer}; }

ValidateResult validate_reference(const schema::Ir& ir, std::string_view document, std::string_view input,
                                  json::NodeSink* sink) {
  ValidateResult r;
  r.implementation = kReferenceImplementation;
  const Loaded& l = loaded_for(ir);
  if (!l.validator) {
    r.verdict = Verdict::kError;
    r.message = "the schema cannot be loaded for canonical validation: " + l.error;
    return r;
  }
  auto v = l.validator->validate(document, input, sink);
  if (!v) {
    r.verdict = Verdict::kUnsupported;
    r.message = "no schema document named " + std::string(document);
    return r;
  }
  r.verdict = v->valid ? Verdict::kValid : Verdict::kInvalid;
  for (const auto& e : v->errors) {
    r.error_paths.push_back(e.path);
    r.error_keywords.push_back(e.keyword);
  }
  r.implementation_defined = v->implementation_defined;
  if (!v->valid && !v->errors.empty())
    r.message = v->errors.front().keyword + ": " + v->errors.front().message;
  return r;
}

}  // namespace crosscheck::exec
