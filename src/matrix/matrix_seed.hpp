// matrix_seed.hpp: turning findings into structural-acceptance matrix cases (crosscheck matrix seed).
//
// A finding qualifies when its input (the minimized one when the reducer wrote it) is a plain JSON
// value the matrix format carries faithfully (strict JSON, UTF-8, no duplicate keys, no lone
// surrogate, nesting up to 100) and at least one of its divergences is a contract divergence. Its case
// expects what the C++ decoder, the reference implementation of the contract, says: accepted = no
// error, warning = accepted with a warning. Each implementation of the finding whose answer differs
// is listed for review. Ids are content-derived: <root>/seed-<first 12 hex of sha256(root "\n"
// canonical value)>, so the same payload gets the same id in every run and on every machine, and
// semantically equal payloads are one case.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "baseline/run_findings.hpp"
#include "matrix/matrix_file.hpp"
#include "schema/ir.hpp"

namespace crosscheck::matrix {

struct Disagreement {
  std::string implementation;
  std::string answer;  ///< "rejected (invalid_type at /x)", "accepted without a warning", "error: ..."
};

struct SeededCase {
  MatrixCase c;
  std::string finding;  ///< the file the payload came from
  std::vector<Disagreement> disagreements;
};

struct SeedResult {
  std::vector<SeededCase> added;               ///< sorted by id
  std::size_t duplicates = 0;                  ///< payloads already in the merged matrix (or seen twice)
  std::map<std::string, std::size_t> skipped;  ///< reason -> findings
  std::string matrix_text;                     ///< the file to write
  std::string review_text;                     ///< the review list (format crosscheck-matrix-review/1)
};

/// The contract statement of a seeded matrix (also how an earlier seed output is recognised).
extern const char* const kSeedContract;

/// Seeds cases from `findings`; with `merge`, keeps its text byte for byte and appends the new cases.
/// Throws Fatal (exit 2) on a conflict: a payload `merge` already has (same root, semantically equal
/// value) with another expectation, naming both files and both ids.
SeedResult seed_matrix(const schema::Ir& ir, const std::vector<baseline::RunFinding>& findings,
                       const Matrix* merge, const std::string& out_path);

}  // namespace crosscheck::matrix
