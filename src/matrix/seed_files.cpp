// seed_files.cpp: `matrix seed` from files to files (seed_files.hpp).
#include "matrix/seed_files.hpp"

#include <filesystem>

#include "baseline/run_findings.hpp"
#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "run/json_file.hpp"
#include "util/result.hpp"

namespace crosscheck::matrix {

namespace {

/// Refuses a matrix that does not fit schemas/matrix.schema.json, naming the case and field.
void validate_matrix_text(const std::string& path, const std::string& text, bool ours) {
  json::ParseLimits limits;
  limits.max_bytes = std::size_t{1} << 30;
  auto parsed = json::parse(text, limits);
  if (!parsed.ok()) throw Fatal(path + ": not JSON: " + parsed.error().message());
  if (auto bad = json::shipped_schema("matrix.schema.json").validate(parsed.value())) {
    throw Fatal((ours ? "internal: the seeded matrix for " : "") + path + ": " +
                json::describe_location(parsed.value(), bad->pointer) + ": " + bad->message +
                (ours ? "; nothing written" : " (schemas/matrix.schema.json)"));
  }
}

/// seeds.json -> seeds.review.json
std::string review_path(const std::string& out) {
  std::string stem = out.size() > 5 && out.ends_with(".json") ? out.substr(0, out.size() - 5) : out;
  return stem + ".review.json";
}

}  // namespace

SeededFiles seed_files(const SeedFiles& o, const std::function<schema::Ir()>& load_ir) {
  namespace fs = std::filesystem;
  auto run = baseline::load_run_folder(o.findings);
  std::optional<Matrix> merge;
  if (!o.merge.empty()) {
    merge = load_matrix(o.merge);
    validate_matrix_text(o.merge, merge->text, false);
  }
  std::error_code ec;
  if (fs::exists(o.out, ec) && !(merge && fs::equivalent(o.out, o.merge, ec)) && !o.force) {
    // An earlier seed output may be replaced; a matrix someone wrote may not.
    bool earlier_seed = false;
    try {
      earlier_seed = load_matrix(o.out).contract == kSeedContract;
    } catch (const Fatal&) {
    }
    if (!earlier_seed) {
      throw Fatal(o.out + " exists and is not an earlier matrix seed output: add to it with --merge " +
                  o.out + ", or replace it with --force");
    }
  }
  auto ir = load_ir();
  SeededFiles seeded;
  seeded.result = seed_matrix(ir, run.findings, merge ? &*merge : nullptr, o.out);
  validate_matrix_text(o.out, seeded.result.matrix_text, true);
  seeded.review_path = review_path(o.out);
  run::write_file_atomically(o.out, seeded.result.matrix_text);
  run::write_file_atomically(seeded.review_path, seeded.result.review_text);
  if (merge) seeded.merged_cases = merge->cases.size();
  return seeded;
}

}  // namespace crosscheck::matrix
