// canonical_comparator.cpp: layer-2 divergences and the cross-layer check (see canonical_comparator.hpp).
#include "layers/canonical/canonical_comparator.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "layers/structural/input_traits.hpp"
#include "schema/sha256.hpp"

namespace crosscheck::layers::canonical {

using core::class_name;
using core::Divergence;
using core::DivergenceClass;
using core::ImplResult;
using core::kCanonicalLayer;
using core::Outcome;
using core::ValidateResult;
using core::Verdict;
using core::verdict_name;
using layers::structural::analyse_input;
using layers::structural::InputTraits;

namespace {

std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

/// `a` is a proper ancestor of `b` (JSON Pointers; "" is the root).
bool proper_ancestor(std::string_view a, std::string_view b) {
  return b.size() > a.size() && b.compare(0, a.size(), a) == 0 && b[a.size()] == '/';
}

/// The keywords of the reference's errors that are faults themselves, not summaries of deeper ones
/// (an error whose path is an ancestor of another error's path): what a bucket of a disagreement the
/// reference rejects is keyed on ("format", "maxLength+pattern"). Empty for a result without keywords.
std::string leaf_keywords(const ValidateResult& r) {
  std::set<std::string> keywords;
  for (std::size_t i = 0; i < r.error_keywords.size() && i < r.error_paths.size(); ++i) {
    bool ancestor = false;
    for (const auto& other : r.error_paths) ancestor = ancestor || proper_ancestor(r.error_paths[i], other);
    if (!ancestor) keywords.insert(r.error_keywords[i]);
  }
  return joined(std::vector<std::string>(keywords.begin(), keywords.end()), "+");
}

std::string describe_invalid(const ValidateResult& r) {
  std::string out = r.implementation;
  if (!r.error_paths.empty()) {
    std::string paths;
    for (std::size_t i = 0; i < r.error_paths.size() && i < 3; ++i)
      paths += (paths.empty() ? "'" : ", '") + r.error_paths[i] + "'";
    if (r.error_paths.size() > 3) paths += ", ...";
    out += " at " + paths;
  }
  if (r.message) out += ": " + *r.message;
  return out;
}

}  // namespace

std::string verdict_tuple(const std::vector<ValidateResult>& validations) {
  std::vector<std::string> parts;
  for (const auto& v : validations) {
    if (v.verdict == Verdict::kValid || v.verdict == Verdict::kInvalid)
      parts.push_back(v.implementation + "=" + verdict_name(v.verdict));
  }
  std::sort(parts.begin(), parts.end());
  return joined(parts, ",");
}

std::vector<std::string> canonical_traits(std::string_view input,
                                          const std::vector<ValidateResult>& validations) {
  std::set<std::string> out;
  for (const auto& v : validations)
    out.insert(v.implementation_defined.begin(), v.implementation_defined.end());
  const InputTraits traits = analyse_input(input);
  if (traits.deep_nesting) out.insert("deep-nesting");
  if (traits.lone_surrogate) out.insert("lone-surrogate");
  if (traits.long_number) out.insert("long-number");
  // A number beyond the double range anywhere, an unknown member's value included: an engine that
  // reads numbers as doubles holds an infinity there (Python's validating loads refuses it).
  if (traits.huge_exponent) out.insert("huge-exponent");
  if (traits.invalid_utf8) out.insert("invalid-utf8");
  return {out.begin(), out.end()};
}

std::vector<Divergence> compare_canonical(std::string_view input,
                                          const std::vector<ValidateResult>& validations,
                                          const std::vector<ImplResult>& decodes) {
  std::vector<Divergence> found;
  // The traits only label a divergence: the input is scanned at the first one (most have none).
  std::optional<std::vector<std::string>> traits;
  std::string trait_part;
  auto emit = [&](DivergenceClass cls, std::vector<std::string> impls, std::string detail,
                  const std::string& who, const std::string& specifics) {
    if (!traits) {
      traits = canonical_traits(input, validations);
      trait_part = joined(*traits, ",");
    }
    std::sort(impls.begin(), impls.end());
    Divergence d;
    d.cls = cls;
    d.layer = kCanonicalLayer;
    d.implementations = std::move(impls);
    d.detail = std::move(detail);
    d.implementation_defined = !traits->empty();
    d.signature =
        std::string(kCanonicalLayer) + "|" + class_name(cls) + "|" + who + "|" + specifics + "|" + trait_part;
    d.bucket = schema::sha256_hex(d.signature).substr(0, 16);
    found.push_back(std::move(d));
  };

  // Failures of a single implementation's validate op.
  for (const auto& v : validations) {
    const std::string why = v.message.value_or("");
    const std::string& who = v.implementation;
    switch (v.verdict) {
      case Verdict::kCrash:
        emit(DivergenceClass::kCrash, {who}, who + " crashed validating: " + why, who, "");
        break;
      case Verdict::kTimeout:
        emit(DivergenceClass::kTimeout, {who}, who + " timed out validating: " + why, who, "");
        break;
      case Verdict::kError:
        emit(DivergenceClass::kSdkError, {who}, who + " raised validating: " + why, who, "");
        break;
      case Verdict::kProtocol:
        emit(DivergenceClass::kProtocol, {who}, who + " broke the protocol validating: " + why, who, "");
        break;
      default:
        break;
    }
  }

  // Valid against invalid.
  std::vector<const ValidateResult*> valid, invalid;
  for (const auto& v : validations) {
    if (v.verdict == Verdict::kValid) valid.push_back(&v);
    if (v.verdict == Verdict::kInvalid) invalid.push_back(&v);
  }
  if (!valid.empty() && !invalid.empty()) {
    std::vector<std::string> impls, valid_names, invalid_details;
    std::string keywords;
    for (const auto* v : valid) {
      impls.push_back(v->implementation);
      valid_names.push_back(v->implementation);
    }
    for (const auto* v : invalid) {
      impls.push_back(v->implementation);
      invalid_details.push_back(describe_invalid(*v));
      if (keywords.empty()) keywords = leaf_keywords(*v);
    }
    emit(DivergenceClass::kCanonicalAcceptance, impls,
         "valid for " + joined(valid_names, ", ") + "; invalid for " + joined(invalid_details, "; "),
         verdict_tuple(validations), keywords);
  }

  // Canonically valid implies structurally accepted, inside each implementation.
  for (const auto* v : valid) {
    auto decode = std::find_if(decodes.begin(), decodes.end(),
                               [&](const ImplResult& r) { return r.implementation == v->implementation; });
    if (decode == decodes.end() || decode->outcome != Outcome::kRejected) continue;
    std::set<std::string> codes;
    std::string errors;
    for (const auto& d : decode->diagnostics) {
      if (d.severity != "error") continue;
      codes.insert(d.code);
      errors += (errors.empty() ? "" : ", ") + d.code + " at '" + d.path + "'";
    }
    const std::string code_part = joined(std::vector<std::string>(codes.begin(), codes.end()), "+");
    emit(DivergenceClass::kLayerInconsistency, {v->implementation},
         v->implementation + ": canonically valid, but its structural decoder rejects it (" +
             (errors.empty() ? std::string("no error given") : errors) + ")",
         v->implementation, code_part.empty() ? "none" : code_part);
  }
  return found;
}

}  // namespace crosscheck::layers::canonical
