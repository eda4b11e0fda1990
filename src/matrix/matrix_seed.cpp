// matrix_seed.cpp: matrix cases from findings, with the C++ decoder's expectation and a review list.
#include "matrix/matrix_seed.hpp"

#include <algorithm>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "decoder/decoder.hpp"
#include "json/parse.hpp"
#include "json/splice.hpp"
#include "json/write.hpp"
#include "layers/structural/input_traits.hpp"
#include "schema/sha256.hpp"
#include "util/result.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::matrix {

const char* const kSeedContract =
    "Seeded by crosscheck matrix seed from fuzz findings. The expectation of each case is what the C++ "
    "structural decoder says, as the reference implementation of the decoding contract (docs/contract.md): "
    "accepted = no error-severity diagnostic; warning = at least one warning-severity diagnostic (false for "
    "a "
    "rejected case); an accepted value must re-encode to a semantically equal value. Cases on which an SDK "
    "disagrees are listed in the .review.json file beside this one for a person to confirm.";

namespace {

std::string answer_of(const core::ImplResult& r) {
  using core::Outcome;
  bool warn = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                          [](const core::Diag& d) { return d.severity == "warning"; });
  if (r.outcome == Outcome::kAccepted) return warn ? "accepted with a warning" : "accepted without a warning";
  if (r.outcome == Outcome::kRejected) {
    for (const auto& d : r.diagnostics) {
      if (d.severity == "error") return "rejected (" + d.code + " at '" + d.path + "')";
    }
    return "rejected";
  }
  return std::string(core::outcome_name(r.outcome)) + (r.message ? ": " + *r.message : "");
}

std::vector<Disagreement> disagreements(const run::Finding& f, bool accepted, bool warning) {
  using core::Outcome;
  std::vector<Disagreement> out;
  for (const auto& r : f.results) {
    if (verdict::is_reference(r.implementation) || r.outcome == Outcome::kUnsupported) continue;
    bool agree = false;
    if (r.outcome == Outcome::kAccepted || r.outcome == Outcome::kRejected) {
      bool acc = r.outcome == Outcome::kAccepted;
      bool warn = acc && std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                                     [](const core::Diag& d) { return d.severity == "warning"; });
      agree = acc == accepted && warn == warning;
    }
    if (!agree) out.push_back({r.implementation, answer_of(r)});
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.implementation < b.implementation; });
  return out;
}

/// Why a finding cannot become a case, or "" when it can.
std::string unsuitable(const run::Finding& f, const schema::Ir& ir) {
  if (!json::parse(f.input).ok()) return "input is not strict JSON in UTF-8";
  auto traits = layers::structural::analyse_input(f.input);
  if (traits.duplicate_keys) return "input has duplicate keys";
  if (traits.lone_surrogate) return "input has a lone surrogate";
  if (traits.deep_nesting) return "input nests deeper than 100";
  if (std::all_of(f.divergences.begin(), f.divergences.end(),
                  [](const core::Divergence& d) { return d.implementation_defined; }))
    return "implementation-defined divergences only";
  if (!ir.find_root(f.root)) return "root unknown to the schema";
  return "";
}

json::Value review_json(const std::string& out_path, const std::vector<SeededCase>& cases) {
  using json::Value;
  Value list = Value::array();
  for (const auto& s : cases) {
    if (s.disagreements.empty()) continue;
    Value x = Value::object();
    x.add("id", Value::string(s.c.id));
    x.add("root", Value::string(s.c.root));
    x.add("finding", Value::string(s.finding));
    Value expected = Value::object();
    expected.add("accepted", Value::boolean(s.c.accepted));
    expected.add("warning", Value::boolean(s.c.warning));
    x.add("decoder", std::move(expected));
    Value dis = Value::array();
    for (const auto& d : s.disagreements) {
      Value y = Value::object();
      y.add("implementation", Value::string(d.implementation));
      y.add("answer", Value::string(d.answer));
      dis.push(std::move(y));
    }
    x.add("disagreements", std::move(dis));
    list.push(std::move(x));
  }
  Value o = Value::object();
  o.add("format", Value::string("crosscheck-matrix-review/1"));
  o.add("matrix", Value::string(out_path));
  o.add("cases", std::move(list));
  return o;
}

}  // namespace

SeedResult seed_matrix(const schema::Ir& ir, const std::vector<baseline::RunFinding>& findings,
                       const Matrix* merge, const std::string& out_path) {
  SeedResult result;
  decoder::Decoder decoder(ir);
  std::map<std::string, const MatrixCase*> existing_by_payload, existing_by_id;
  if (merge) {
    for (const auto& c : merge->cases) {
      existing_by_payload.emplace(c.root + "\n" + canonical_text(c.value), &c);
      existing_by_id.emplace(c.id, &c);
    }
  }
  std::map<std::string, SeededCase> seeded;  // by payload key
  std::vector<std::string> conflicts;
  for (const auto& rf : findings) {
    const run::Finding& f = rf.best();
    std::string why = unsuitable(f, ir);
    if (!why.empty()) {
      ++result.skipped[why];
      continue;
    }
    SeededCase s;
    s.c.root = f.root;
    s.c.value = std::move(json::parse(f.input).value());
    s.c.text = json::write(s.c.value);
    std::string canonical = canonical_text(s.c.value);
    std::string key = f.root + "\n" + canonical;
    s.c.id = f.root + "/seed-" + schema::sha256_hex(key).substr(0, 12);
    auto decoded = decoder.check(*ir.find_root(f.root), s.c.value);
    s.c.accepted = decoded.accepted;
    s.c.warning = decoded.accepted && decoded.has_warning();
    s.finding = rf.best_path();
    s.disagreements = disagreements(f, s.c.accepted, s.c.warning);
    auto same = existing_by_payload.find(key);
    auto same_id = existing_by_id.find(s.c.id);
    const MatrixCase* old = same != existing_by_payload.end() ? same->second
                            : same_id != existing_by_id.end() ? same_id->second
                                                              : nullptr;
    if (old) {
      bool equal_payload = same != existing_by_payload.end();
      if (equal_payload && old->accepted == s.c.accepted && old->warning == s.c.warning) {
        ++result.duplicates;
        continue;
      }
      auto says = [](bool a, bool w) {
        return std::string(a ? (w ? "accepted with a warning" : "accepted") : "rejected");
      };
      conflicts.push_back(
          merge->path + " case " + old->id + " expects " + says(old->accepted, old->warning) +
          (equal_payload ? ", but the C++ decoder says " + says(s.c.accepted, s.c.warning) +
                               " for the same payload in " + s.finding + " (seeded id " + s.c.id + ")"
                         : ", a different payload, under the id " + s.c.id + " seeded from " + s.finding));
      continue;
    }
    if (seeded.count(key)) {
      ++result.duplicates;
      // Keep the smallest file name for a stable "finding" field whatever the listing order.
      if (s.finding < seeded[key].finding) seeded[key] = std::move(s);
      continue;
    }
    seeded.emplace(key, std::move(s));
  }
  if (!conflicts.empty()) {
    std::string message =
        "matrix seed: " + std::to_string(conflicts.size()) + " conflicting expectation(s); nothing written:";
    for (std::size_t i = 0; i < conflicts.size() && i < 10; ++i) message += "\n  " + conflicts[i];
    if (conflicts.size() > 10) message += "\n  ... and " + std::to_string(conflicts.size() - 10) + " more";
    throw Fatal(message);
  }
  for (auto& [key, s] : seeded) result.added.push_back(std::move(s));
  std::sort(result.added.begin(), result.added.end(),
            [](const SeededCase& a, const SeededCase& b) { return a.c.id < b.c.id; });
  std::vector<std::string> lines;
  for (const auto& s : result.added) lines.push_back("    " + case_line(s.c));
  if (merge) {
    result.matrix_text = json::append_to_array_member(merge->text, "cases", lines, "  ");
  } else {
    std::string text = "{\n  \"contract\": " + json::quote(kSeedContract, true) + ",\n  \"cases\": [";
    for (std::size_t i = 0; i < lines.size(); ++i) text += (i ? ",\n" : "\n") + lines[i];
    result.matrix_text = text + (lines.empty() ? "]\n}\n" : "\n  ]\n}\n");
  }
  json::WriteOptions pretty;
  pretty.indent = 2;
  result.review_text = json::write(review_json(out_path, result.added), pretty) + "\n";
  return result;
}

}  // namespace crosscheck::matrix
