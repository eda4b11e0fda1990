// seed_files.hpp: `matrix seed` from files to files: the findings of a run folder, the matrix to add
// to (checked against schemas/matrix.schema.json), the output matrix and its review list beside it
// (OUT.review.json), which replace only an earlier seed output unless forced.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "matrix/matrix_seed.hpp"
#include "schema/ir.hpp"

namespace crosscheck::matrix {

struct SeedFiles {
  std::string findings;  ///< a run folder or its findings folder
  std::string out;
  std::string merge;  ///< empty: a new matrix
  bool force = false;
};

struct SeededFiles {
  SeedResult result;
  std::string review_path;                  ///< where the review list went
  std::optional<std::size_t> merged_cases;  ///< the cases of the merged matrix, when there was one
};

/// Seeds OUT from the findings with the IR `load_ir` gives (called once the inputs are checked) and
/// writes OUT and its review list. Throws Fatal (exit 2) on a bad input, an OUT it may not replace,
/// or a conflict (seed_matrix()); nothing is written then.
SeededFiles seed_files(const SeedFiles& o, const std::function<schema::Ir()>& load_ir);

}  // namespace crosscheck::matrix
