// matrix_run.hpp: `matrix run`'s judgment: every implementation's answer to every case of a matrix
// against the case's expectation, through the known-failure list (baseline/known_cases.hpp), as
// the cells of a cases x implementations table, the reasons for its failing cells and a tally per
// implementation.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "baseline/known_cases.hpp"
#include "core/impl_result.hpp"
#include "core/payload_results.hpp"
#include "matrix/matrix_file.hpp"

namespace crosscheck::matrix {

/// Does one implementation meet the case? Empty when it does, else why not.
std::string check_case(const MatrixCase& c, const core::ImplResult& r, bool reports_warnings);

struct MatrixTally {
  std::size_t passed = 0, failed = 0, unsupported = 0, known = 0, stale = 0;
};

struct MatrixRow {
  std::string id;
  std::vector<std::string> cells;  ///< "pass", "FAIL", "known", "STALE" or "unsup", per implementation
  bool failing = false;
};

struct MatrixVerdict {
  std::vector<MatrixRow> rows;  ///< the failing cases' rows; every case's when verbose
  std::vector<std::string>
      reasons;  ///< a line per failing cell (known ones too when verbose), then stale globs
  std::vector<MatrixTally> tallies;      ///< per implementation, in implementation order
  std::vector<std::string> unknown_ids;  ///< exact ids of the known-failure list the matrix lacks
  std::size_t failing_cases = 0;         ///< cases with a failing cell, plus the stale globs
  std::size_t stale_globs = 0;
};

/// Judges `results` (one per case, in case order; each with one result per implementation of
/// `names`). `reports_warnings[i]`: implementation i's hello says it reports warnings.
MatrixVerdict judge_matrix(const std::vector<MatrixCase>& cases,
                           const std::vector<core::PayloadResults>& results,
                           const std::vector<std::string>& names, const std::vector<bool>& reports_warnings,
                           baseline::KnownCases& known, bool verbose);

}  // namespace crosscheck::matrix
