// matrix_run.cpp: `matrix run`'s judgment of a matrix's results (matrix_run.hpp).
#include "matrix/matrix_run.hpp"

#include <algorithm>
#include <set>

#include "json/equal.hpp"
#include "json/parse.hpp"

namespace crosscheck::matrix {

std::string check_case(const MatrixCase& c, const core::ImplResult& r, bool reports_warnings) {
  using core::Outcome;
  if (r.outcome == Outcome::kUnsupported) return "";  // skew: counted apart
  if (r.outcome != Outcome::kAccepted && r.outcome != Outcome::kRejected) {
    return std::string(core::outcome_name(r.outcome)) + (r.message ? ": " + *r.message : "");
  }
  bool accepted = r.outcome == Outcome::kAccepted;
  bool warning = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                             [](const auto& d) { return d.severity == "warning"; });
  if (accepted != c.accepted) {
    std::string first;
    for (const auto& d : r.diagnostics) {
      if (d.severity == "error") {
        first = " (" + d.code + " at '" + d.path + "')";
        break;
      }
    }
    return accepted ? "accepted, expected rejected" : "rejected, expected accepted" + first;
  }
  if (reports_warnings && warning != c.warning)
    return warning ? "warned, expected no warning" : "no warning, expected one";
  if (accepted) {
    if (!r.encoded)
      return "accepted but did not re-encode" + (r.encode_error ? ": " + *r.encode_error : std::string());
    json::ParseLimits limits;
    limits.max_depth = 100000;
    auto enc = json::parse(*r.encoded, limits);
    if (!enc.ok() || !json::semantically_equal(enc.value(), c.value))
      return "re-encoding differs from the value";
  }
  return "";
}

MatrixVerdict judge_matrix(const std::vector<MatrixCase>& cases,
                           const std::vector<core::PayloadResults>& results,
                           const std::vector<std::string>& names, const std::vector<bool>& reports_warnings,
                           baseline::KnownCases& known, bool verbose) {
  MatrixVerdict v;
  v.tallies.resize(names.size());
  std::set<std::string> ids;
  for (const auto& c : cases) ids.insert(c.id);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    std::vector<std::string> cells;
    bool any_fail = false;
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto& r = results[k].results[i];
      MatrixTally& t = v.tallies[i];
      if (r.outcome == core::Outcome::kUnsupported) {
        ++t.unsupported;
        cells.push_back("unsup");
        continue;
      }
      std::string why = check_case(cases[k], r, reports_warnings[i]);
      baseline::CaseCell cell = known.judge(names[i], cases[k].id, !why.empty());
      if (cell.state == baseline::CaseState::kStale) {
        ++t.stale;
        any_fail = true;
        cells.push_back("STALE");
        v.reasons.push_back(cases[k].id + " [" + names[i] +
                            "]: passes, but the known-failure list says it fails (" + cell.entries +
                            "); remove it there");
      } else if (cell.state == baseline::CaseState::kKnown) {
        ++t.known;
        cells.push_back("known");
        if (verbose)
          v.reasons.push_back(cases[k].id + " [" + names[i] + "]: known: " + why + " (" + cell.entries + ")");
      } else if (why.empty()) {
        ++t.passed;
        cells.push_back("pass");
      } else {
        ++t.failed;
        any_fail = true;
        cells.push_back("FAIL");
        v.reasons.push_back(cases[k].id + " [" + names[i] + "]: " + why);
      }
    }
    if (any_fail) ++v.failing_cases;
    if (any_fail || verbose) v.rows.push_back(MatrixRow{cases[k].id, std::move(cells), any_fail});
  }
  // A glob that covered no failing cell of an implementation of this run is stale; an exact id the
  // matrix lacks is probably a rename (or an entry for another matrix).
  auto stale_patterns = known.stale_patterns(names, ids, v.unknown_ids);
  v.stale_globs = stale_patterns.size();
  v.reasons.insert(v.reasons.end(), stale_patterns.begin(), stale_patterns.end());
  v.failing_cases += v.stale_globs;
  return v;
}

}  // namespace crosscheck::matrix
