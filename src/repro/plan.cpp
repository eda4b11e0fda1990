// plan.cpp: what a reproducer asserts, from a finding's divergences, their blame and the reference's
// answers recorded in the finding.
#include <algorithm>
#include <set>

#include "repro/repro.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::repro {
using core::DivergenceClass;
using core::Outcome;

const core::ImplResult* result_of(const run::Finding& f, const std::string& implementation) {
  for (const auto& r : f.results)
    if (r.implementation == implementation) return &r;
  return nullptr;
}

const core::ValidateResult* validation_of(const run::Finding& f, const std::string& implementation) {
  for (const auto& v : f.validations)
    if (v.implementation == implementation) return &v;
  return nullptr;
}

bool rejected_as_json(const core::ImplResult& r) {
  return r.outcome == Outcome::kRejected &&
         std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                     [](const core::Diag& d) { return d.severity == "error" && d.code == "invalid_json"; });
}

namespace {

/// The (code, path) pairs of one severity, sorted; `distinct` makes it a set.
std::vector<core::Diag> diagnostics_of(const core::ImplResult& r, const char* severity, bool distinct) {
  std::vector<core::Diag> out;
  for (const auto& d : r.diagnostics)
    if (d.severity == severity) out.push_back(d);
  std::sort(out.begin(), out.end(), [](const core::Diag& a, const core::Diag& b) {
    return std::tie(a.code, a.path) < std::tie(b.code, b.path);
  });
  if (distinct)
    out.erase(std::unique(out.begin(), out.end(),
                          [](const core::Diag& a, const core::Diag& b) {
                            return a.code == b.code && a.path == b.path;
                          }),
              out.end());
  return out;
}

std::string describe(const core::ImplResult& r) {
  std::string s = core::outcome_name(r.outcome);
  std::vector<std::string> parts;
  for (const auto& d : r.diagnostics) {
    if (parts.size() == 3) {
      parts.push_back("...");
      break;
    }
    parts.push_back(d.severity + " " + d.code + " at '" + d.path + "'");
  }
  if (r.encode_error) parts.push_back("encode failed: " + *r.encode_error);
  if (r.outcome != Outcome::kAccepted && r.outcome != Outcome::kRejected && r.message)
    parts.push_back(*r.message);
  if (!parts.empty()) {
    s += " (";
    for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? "; " : "") + parts[i];
    s += ")";
  }
  return s;
}

std::string describe(const core::ValidateResult& v) {
  std::string s = core::verdict_name(v.verdict);
  if (v.verdict == core::Verdict::kInvalid && !v.error_paths.empty()) {
    s += " at '" + v.error_paths.front() + "'";
    if (!v.error_keywords.empty()) s += " (" + v.error_keywords.front() + ")";
  } else if (v.verdict != core::Verdict::kValid && v.message) {
    s += " (" + *v.message + ")";
  }
  return s;
}

bool is_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    std::uint32_t cp = n == 1 ? c : c & (0x7f >> n);
    for (std::size_t k = 1; k < n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d >> 6) != 2) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    // Overlong forms, surrogates and beyond U+10FFFF are not UTF-8 (Python's strict decode refuses them).
    static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return false;
    i += n;
  }
  return true;
}

bool identifier(const std::string& s, bool dashes) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || (dashes && c == '-');
  });
}

Check base_check(const core::Divergence& d) {
  Check c;
  c.layer = d.layer;
  c.cls = core::class_name(d.cls);
  c.bucket = d.bucket;
  c.signature = d.signature;
  c.implementation_defined = d.implementation_defined;
  return c;
}

/// The keys of a contextual-result signature, "contextual-result/<event type>/<key>,<key>".
std::vector<std::string> result_keys(const std::string& signature) {
  std::vector<std::string> keys;
  const std::string last = signature.substr(signature.rfind('/') + 1);
  for (std::size_t at = 0, comma = 0; comma != std::string::npos; at = comma + 1) {
    comma = last.find(',', at);
    std::string key = last.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (!key.empty()) keys.push_back(std::move(key));
  }
  return keys;
}

/// Layer 3: the reference host's answer to the row (derived or rejected) and, for a result that
/// differs, its value on the keys that differ. A row's expectation alone is the client's own verdict
/// against the row, which the reference's answer does not decide: left out, or refused when alone.
Result<Plan, std::string> plan_contextual(const run::Finding& f,
                                          const std::vector<const core::Divergence*>& blamed, Plan plan) {
  const run::ScenarioEntry* ref = nullptr;
  const run::ScenarioEntry* dev = nullptr;
  for (const auto& e : f.scenario->entries) {
    if (e.implementation == plan.reference) ref = &e;
    if (e.implementation == plan.deviating) dev = &e;
  }
  const core::ImplResult* ref_result = result_of(f, plan.reference);
  if (!ref || (ref->answer != "derived" && ref->answer != "rejected"))
    return "the finding has no answer of the reference host " + plan.reference + " to the row to assert";
  auto answer_text = [](const run::ScenarioEntry* e, const core::ImplResult* r) {
    if (!e) return std::string("not recorded in the finding");
    std::string s = e->answer + " (" + e->status + ")";
    if (r && r->encoded) s += ": " + *r->encoded;
    return s;
  };
  for (const auto* d : blamed) {
    Check c = base_check(*d);
    c.reference_answer = answer_text(ref, ref_result);
    c.sdk_answer = answer_text(dev, result_of(f, plan.deviating));
    if (d->cls == DivergenceClass::kContextualAcceptance) {
      c.kind = Check::Kind::kContextualAnswer;
      c.expect = ref->answer == "derived";
    } else if (d->cls == DivergenceClass::kContextualResult) {
      if (!ref_result || !ref_result->encoded)
        return "bucket " + d->bucket + ": the finding has no result the reference host derived";
      c.kind = Check::Kind::kContextualKeys;
      c.keys = result_keys(d->signature);
      c.encoded = *ref_result->encoded;
    } else if (d->cls == DivergenceClass::kContextualExpectation) {
      continue;
    } else if (d->cls == DivergenceClass::kCrash || d->cls == DivergenceClass::kTimeout ||
               d->cls == DivergenceClass::kSdkError) {
      c.kind = Check::Kind::kContextualAnswer;  // the client must finish the row with the reference's answer
      c.expect = ref->answer == "derived";
    } else {
      return "bucket " + d->bucket + " (" + core::class_name(d->cls) +
             "): no layer-3 reproducer for this class";
    }
    plan.checks.push_back(std::move(c));
  }
  if (plan.checks.empty())
    return plan.deviating +
           " deviates here only from the row's own expectation (contextual-expectation): that is its verdict "
           "against the row, which the reference host's answer does not decide; nothing to assert";
  return plan;
}

}  // namespace

Result<Plan, std::string> plan_reproducer(const run::Finding& f, const std::string& finding_path,
                                          const std::string& deviating, const std::string& sdk_language) {
  Plan plan;
  plan.finding_path = finding_path;
  plan.finding_id = run::finding_hash(f.root, f.input);
  plan.root = f.root;
  plan.document = f.document;
  plan.input = f.input;
  plan.replay = f.replay;
  plan.deviating = deviating;
  if (f.scenario && f.scenario->mode != run::kScenarioClients)
    return std::string(
        "a layer-3 request-admission finding (scenarios run --servers): reproducers are written for "
        "the interop clients only");
  if (f.scenario) plan.scenario_id = f.scenario->id;

  std::vector<const core::Divergence*> blamed;
  std::set<std::string> bases;
  std::string reference;
  std::string others;  // who the divergences do blame, for the refusal's message
  for (const auto& d : f.divergences) {
    const auto b = verdict::blame(d, f.results);
    if (std::find(b.deviating.begin(), b.deviating.end(), deviating) == b.deviating.end()) {
      for (const auto& i : b.deviating)
        if (others.find(i) == std::string::npos) others += (others.empty() ? "" : ", ") + i;
      continue;
    }
    blamed.push_back(&d);
    bases.insert(verdict::basis_name(b.basis));
    if (!b.reference.empty()) reference = b.reference;
  }
  if (blamed.empty())
    return deviating + " does not deviate in this finding (by verdict/blame: " +
           (others.empty() ? std::string("no implementation") : others) + " does): there is nothing of " +
           deviating + "'s to reproduce";
  if (verdict::is_reference(deviating))
    return deviating +
           " is the reference: a reproducer asserts the reference's answer, so it cannot show it wrong";
  for (const auto& b : bases) plan.blame_basis += (plan.blame_basis.empty() ? "" : ", ") + b;
  plan.reference = reference.empty() ? std::string(verdict::kReferenceImplementation) : reference;

  if (f.scenario) return plan_contextual(f, blamed, std::move(plan));
  if (!identifier(f.root, false))
    return "root '" + f.root +
           "' is not a generated root name ([a-z0-9_]+): no SDK entrypoint is named after it";
  if (sdk_language != "go" && !is_utf8(f.input))  // Go's parse takes bytes; the others take text
    return "the witness is not UTF-8: the " + sdk_language +
           " SDK's entrypoints take text, so these bytes never reach it (its adapter answers error before "
           "the SDK "
           "is called; docs/findings.md section 5)";

  const core::ImplResult* ref = result_of(f, plan.reference);
  const core::ImplResult* dev = result_of(f, deviating);
  const core::ValidateResult* ref_v = validation_of(f, plan.reference);
  const core::ValidateResult* dev_v = validation_of(f, deviating);
  auto structural_answer = [&](const char* what) -> Result<const core::ImplResult*, std::string> {
    if (!ref || (ref->outcome != Outcome::kAccepted && ref->outcome != Outcome::kRejected))
      return "the finding has no structural answer of the reference " + plan.reference + " to assert (" +
             what + ")";
    return ref;
  };
  auto canonical_answer = [&]() -> Result<const core::ValidateResult*, std::string> {
    if (f.document.empty() || !identifier(f.document, true))
      return std::string("the finding names no schema document to validate as ('document')");
    if (!ref_v || (ref_v->verdict != core::Verdict::kValid && ref_v->verdict != core::Verdict::kInvalid))
      return "the finding has no canonical verdict of the reference " + plan.reference + " to assert";
    return ref_v;
  };
  auto add_outcome = [&](const core::Divergence& d) -> std::optional<std::string> {
    auto r = structural_answer(core::class_name(d.cls));
    if (!r) return r.error();
    Check c = base_check(d);
    c.kind = Check::Kind::kOutcome;
    c.expect = r.value()->outcome == Outcome::kAccepted;
    c.reference_answer = describe(*r.value());
    c.sdk_answer = dev ? describe(*dev) : "not recorded in the finding";
    plan.checks.push_back(std::move(c));
    return std::nullopt;
  };
  auto add_verdict = [&](const core::Divergence& d) -> std::optional<std::string> {
    auto v = canonical_answer();
    if (!v) return v.error();
    Check c = base_check(d);
    c.kind = Check::Kind::kVerdict;
    c.expect = v.value()->verdict == core::Verdict::kValid;
    c.reference_answer = describe(*v.value());
    c.sdk_answer = dev_v ? describe(*dev_v) : "not recorded in the finding";
    plan.checks.push_back(std::move(c));
    return std::nullopt;
  };

  for (const auto* d : blamed) {
    std::optional<std::string> problem;
    const bool canonical = d->layer == core::kCanonicalLayer;
    switch (d->cls) {
      case DivergenceClass::kProtocol:
        problem =
            deviating + "'s adapter broke the adapter protocol: that is the adapter's fault, not the SDK's";
        break;
      case DivergenceClass::kCanonicalAcceptance:
        problem = add_verdict(*d);
        break;
      case DivergenceClass::kLayerInconsistency:
        // Canonically valid yet structurally rejected inside one implementation: both of its gates
        // are asked for the reference's answers.
        problem = add_verdict(*d);
        if (!problem) problem = add_outcome(*d);
        break;
      case DivergenceClass::kSdkError:
      case DivergenceClass::kCrash:
      case DivergenceClass::kTimeout:
        problem = canonical ? add_verdict(*d) : add_outcome(*d);
        break;
      case DivergenceClass::kAcceptance: {
        auto r = structural_answer("acceptance");
        if (!r) {
          problem = r.error();
          break;
        }
        const bool text_level =
            rejected_as_json(*r.value()) || (dev && rejected_as_json(*dev)) ||
            std::any_of(f.results.begin(), f.results.end(), [&](const core::ImplResult& x) {
              return rejected_as_json(x) && std::find(d->implementations.begin(), d->implementations.end(),
                                                      x.implementation) != d->implementations.end();
            });
        if (!text_level) {
          problem = add_outcome(*d);
          break;
        }
        Check c = base_check(*d);
        c.kind = Check::Kind::kParsed;
        c.expect = !rejected_as_json(*r.value());
        c.reference_answer = c.expect ? "reads the text as JSON (" + describe(*r.value()) + ")"
                                      : "refuses the text as JSON (invalid_json)";
        c.sdk_answer = dev ? describe(*dev) : "not recorded in the finding";
        plan.checks.push_back(std::move(c));
        break;
      }
      case DivergenceClass::kWarnings:
      case DivergenceClass::kDiagnostics: {
        auto r = structural_answer(core::class_name(d->cls));
        if (!r) {
          problem = r.error();
          break;
        }
        const bool warnings = d->cls == DivergenceClass::kWarnings;
        Check c = base_check(*d);
        c.kind = warnings ? Check::Kind::kWarnings : Check::Kind::kErrors;
        c.diagnostics = diagnostics_of(*r.value(), warnings ? "warning" : "error", !warnings);
        c.reference_answer = describe(*r.value());
        c.sdk_answer = dev ? describe(*dev) : "not recorded in the finding";
        plan.checks.push_back(std::move(c));
        break;
      }
      case DivergenceClass::kRoundTripSelf:
      case DivergenceClass::kRoundTripCross: {
        Check c = base_check(*d);
        c.sdk_answer = dev ? describe(*dev) : "not recorded in the finding";
        if (dev && dev->encoded)
          c.sdk_answer += "; re-encodes as " +
                          (dev->encoded->size() > 200 ? dev->encoded->substr(0, 200) + "..." : *dev->encoded);
        if (d->cls == DivergenceClass::kRoundTripCross) {
          if (!ref || !ref->encoded) {
            problem =
                "a round-trip-cross between SDKs the reference did not re-encode: no answer of the reference "
                "to assert";
            break;
          }
          c.kind = Check::Kind::kEncodesAs;
          c.encoded = *ref->encoded;
          c.reference_answer =
              "accepted; re-encodes to a value semantically equal to the reference's re-encoding";
        } else {
          c.kind = Check::Kind::kRoundTrip;
          c.reference_answer = "accepted; re-encodes to a value semantically equal to the input";
        }
        plan.checks.push_back(std::move(c));
        break;
      }
      default:
        problem = std::string("class ") + core::class_name(d->cls) + " has no reproducer at layers 1 and 2";
        break;
    }
    if (problem) return "bucket " + d->bucket + " (" + core::class_name(d->cls) + "): " + *problem;
  }
  return plan;
}

}  // namespace crosscheck::repro
