// blame.cpp: the deviating implementations of a divergence, by the contract's reference or, for an
// implementation-defined one, by majority.
#include "verdict/blame.hpp"

#include <algorithm>
#include <map>

namespace crosscheck::verdict {
namespace {

using core::DivergenceClass;
using core::ImplResult;
using core::Outcome;

bool rejected_as_json(const ImplResult& r) {
  return r.outcome == Outcome::kRejected &&
         std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                     [](const core::Diag& d) { return d.severity == "error" && d.code == "invalid_json"; });
}

/// The diagnostics of one severity as a comparable text: a multiset, or a set when `distinct`.
std::string diagnostics_key(const ImplResult& r, const char* severity, bool distinct) {
  std::vector<std::string> parts;
  for (const auto& d : r.diagnostics) {
    if (d.severity == severity) parts.push_back(d.code + "@" + d.path);
  }
  std::sort(parts.begin(), parts.end());
  if (distinct) parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
  std::string s;
  for (const auto& p : parts) s += p + "\n";
  return s;
}

Blame every_involved(const core::Divergence& d, Basis basis) {
  Blame b;
  b.deviating = d.implementations;
  b.basis = basis;
  return b;
}

}  // namespace

bool is_reference(std::string_view implementation) {
  return implementation == kReferenceImplementation ||
         (implementation.size() > kReferenceImplementation.size() + 1 &&
          implementation.substr(0, kReferenceImplementation.size()) == kReferenceImplementation &&
          implementation[kReferenceImplementation.size()] == '@');
}

const char* basis_name(Basis basis) {
  switch (basis) {
    case Basis::kReference:
      return "reference";
    case Basis::kReferenceWrong:
      return "reference-wrong";
    case Basis::kMajority:
      return "majority";
    case Basis::kOwnFailure:
      return "own-failure";
    case Basis::kUndecided:
      return "undecided";
  }
  return "undecided";
}

std::string Blame::explanation() const {
  switch (basis) {
    case Basis::kReference:
      return "differs from the reference " + reference;
    case Basis::kReferenceWrong:
      return "the reference " + reference + " is wrong here (baseline), with those that answered as it did";
    case Basis::kMajority:
      return "differs from the majority (implementation-defined input)";
    case Basis::kOwnFailure:
      return "its own failure";
    case Basis::kUndecided:
      return "no reference and no majority among them: every implementation involved";
  }
  return "";
}

namespace {

/// Layer 3's contextual-result: the scenario verdict already compared each derived result with the
/// reference's (with the contract's tolerances), and a finding lists as involved the reference and
/// exactly the clients that differ from it (without a reference: every client that derived).
Blame contextual_result_blame(const core::Divergence& d, const std::vector<ImplResult>& results,
                              const BlameOptions& options) {
  auto it = std::find_if(d.implementations.begin(), d.implementations.end(),
                         [](const std::string& i) { return is_reference(i); });
  if (it == d.implementations.end()) return every_involved(d, Basis::kUndecided);
  Blame b;
  b.reference = *it;
  if (options.reference_wrong) {
    // The reference and the clients that derived what it did (the ones not listed as differing).
    b.basis = Basis::kReferenceWrong;
    b.deviating.push_back(b.reference);
    for (const auto& r : results) {
      if (r.outcome == Outcome::kAccepted && !is_reference(r.implementation) &&
          std::find(d.implementations.begin(), d.implementations.end(), r.implementation) ==
              d.implementations.end())
        b.deviating.push_back(r.implementation);
    }
  } else {
    b.basis = Basis::kReference;
    for (const auto& i : d.implementations)
      if (i != b.reference) b.deviating.push_back(i);
  }
  std::sort(b.deviating.begin(), b.deviating.end());
  return b;
}

}  // namespace

Blame blame(const core::Divergence& d, const std::vector<ImplResult>& results, const BlameOptions& options) {
  if (d.cls == DivergenceClass::kContextualResult) return contextual_result_blame(d, results, options);
  // Layer 3's admitted/refused and derived/rejected are outcomes, compared as acceptance is.
  const bool acceptance = d.cls == DivergenceClass::kAcceptance ||
                          d.cls == DivergenceClass::kContextualAcceptance ||
                          d.cls == DivergenceClass::kRequestAdmission;
  if (!acceptance && d.cls != DivergenceClass::kWarnings && d.cls != DivergenceClass::kDiagnostics &&
      d.cls != DivergenceClass::kCanonicalAcceptance)
    return every_involved(d, Basis::kOwnFailure);
  auto involved = [&](const ImplResult& r) {
    return std::find(d.implementations.begin(), d.implementations.end(), r.implementation) !=
           d.implementations.end();
  };
  // At the level of the text (some rejected it as JSON) the others' own acceptance is another
  // divergence: they all just "parsed" it.
  const bool at_text_level = d.cls == DivergenceClass::kAcceptance &&
                             std::any_of(results.begin(), results.end(), [&](const ImplResult& r) {
                               return involved(r) && rejected_as_json(r);
                             });
  std::map<std::string, std::string> key;  // implementation -> the answer the divergence is about
  if (d.cls == DivergenceClass::kCanonicalAcceptance) {
    // Layer 2: the verdicts are the signature's "who" part, "canonical|class|cpp=invalid,python=valid|..."
    // (layers/canonical/canonical_comparator.hpp), so no layer-1 result is needed.
    std::vector<std::string> parts;
    for (std::size_t at = 0, bar = 0; bar != std::string::npos; at = bar + 1) {
      bar = d.signature.find('|', at);
      parts.push_back(d.signature.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
    }
    const std::string who = parts.size() > 2 ? parts[2] : "";
    for (std::size_t at = 0, comma = 0; comma != std::string::npos && !who.empty(); at = comma + 1) {
      comma = who.find(',', at);
      const std::string pair = who.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      const std::size_t eq = pair.rfind('=');
      if (eq != std::string::npos) key[pair.substr(0, eq)] = pair.substr(eq + 1);
    }
  }
  for (const auto& r : results) {
    if (d.cls == DivergenceClass::kCanonicalAcceptance || !involved(r)) continue;
    if (acceptance)
      key[r.implementation] =
          at_text_level ? (rejected_as_json(r) ? "unparsed" : "parsed") : core::outcome_name(r.outcome);
    else if (d.cls == DivergenceClass::kWarnings)
      key[r.implementation] = diagnostics_key(r, "warning", false);
    else
      key[r.implementation] = diagnostics_key(r, "error", true);
  }
  if (key.size() < 2) return every_involved(d, Basis::kUndecided);

  std::string reference;
  for (const auto& [impl, k] : key) {
    if (is_reference(impl) && (reference.empty() || impl == kReferenceImplementation)) reference = impl;
  }
  auto differing_from = [&](const std::string& answer, bool same) {
    std::vector<std::string> out;
    for (const auto& [impl, k] : key) {
      if ((k == answer) == same) out.push_back(impl);
    }
    return out;
  };
  Blame b;
  if (!reference.empty() && options.reference_wrong) {
    b.deviating = differing_from(key[reference], true);
    b.basis = Basis::kReferenceWrong;
    b.reference = reference;
    return b;
  }
  if (d.implementation_defined) {
    std::map<std::string, std::size_t> votes;
    for (const auto& [impl, k] : key) ++votes[k];
    std::size_t best = 0, at_best = 0;
    std::string majority;
    for (const auto& [k, n] : votes) {
      if (n > best) {
        best = n;
        at_best = 1;
        majority = k;
      } else if (n == best) {
        ++at_best;
      }
    }
    if (at_best == 1) {
      b.deviating = differing_from(majority, false);
      b.basis = Basis::kMajority;
      return b;
    }
  }
  // A contract divergence, or an implementation-defined one without a majority: the reference decides.
  if (reference.empty()) return every_involved(d, Basis::kUndecided);
  b.deviating = differing_from(key[reference], false);
  b.basis = Basis::kReference;
  b.reference = reference;
  // Answers that differ in a way the key does not see (it cannot happen for a divergence the
  // comparator made from these results): name every implementation rather than none.
  if (b.deviating.empty()) return every_involved(d, Basis::kUndecided);
  return b;
}

}  // namespace crosscheck::verdict
