// verdict_file.hpp: RUN/verdict.json, the verdict crosscheck last decided for a run folder
// (format crosscheck-verdict/1, schemas/verdict.schema.json). `fuzz`, `merge` and `baseline check`
// write it; `crosscheck verdict RUN` and the CI scripts read it instead of deciding again.
#pragma once

#include <filesystem>
#include <optional>

#include "run/layout.hpp"
#include "verdict/verdict.hpp"

namespace crosscheck::run {

/// Writes RUN/verdict.json atomically; `decided_by` names the command ("fuzz", "merge", "baseline check").
void write_verdict(const std::filesystem::path& run_dir, const verdict::Verdict& v, const char* decided_by);

/// RUN/verdict.json, or nullopt when the folder has none. Fatal (exit 2) naming the file, the JSON
/// Pointer and the expectation when it is of another format version or does not fit its schema.
std::optional<verdict::Verdict> read_verdict(const std::filesystem::path& run_dir);

}  // namespace crosscheck::run
