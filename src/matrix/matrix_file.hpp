// matrix_file.hpp: structural-acceptance matrices ({contract, cases: [{id, root, value, accepted,
// warning}]}, schemas/matrix.schema.json, tests/data/matrix/README.md): reading them, the canonical
// form that tells whether two cases carry the same payload, and writing cases in the file's layout.
#pragma once

#include <string>
#include <vector>

#include "json/value.hpp"

namespace crosscheck::matrix {

struct MatrixCase {
  std::string id, root;
  std::string text;  ///< the value as compact JSON, number spellings kept
  json::Value value;
  bool accepted = false, warning = false;
};

struct Matrix {
  std::string path;
  std::string text;  ///< the file as read
  std::string contract;
  std::vector<MatrixCase> cases;
};

/// Reads a matrix; throws Fatal (exit 2) naming the file, the case (index and id) and the field.
Matrix load_matrix(const std::string& path);

/// Canonical JSON of a value: object members sorted by name (duplicates: the last one), numbers in
/// json::canonical_number form, strings escaped one way. Semantically equal values (json/equal.hpp)
/// give equal texts, so (root, canonical) identifies a payload.
std::string canonical_text(const json::Value& value);

/// A case as one line in the matrix layout: {"id": ..., "root": ..., "value": ..., "accepted": ...,
/// "warning": ...} with ", " and ": " separators, ASCII only, number spellings kept.
std::string case_line(const MatrixCase& c);

}  // namespace crosscheck::matrix
