// json_file.hpp: reading and writing the JSON files of a run folder, each checked against its schema.
//
// A file written by another format version, or one that does not fit its schema, is refused with a
// Fatal (exit 2) that names the file, the JSON Pointer of the offending member and what was expected
// there; the folder is never changed by a refused read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "json/value.hpp"

namespace crosscheck::run {

/// The file parsed, or null when it does not exist. Fatal naming the file when it exists but cannot
/// be read, is not JSON (damaged, or cut while being written) or is not an object.
json::Value read_json_object(const std::filesystem::path& file);

/// Fatal unless `value`'s "format" is `expected`: "FILE: /format: expected \"crosscheck-summary/1\"
/// (format version), found ...".
void require_format(const std::filesystem::path& file, const json::Value& value, const char* expected);

/// Fatal naming the file, the JSON Pointer and the expectation when `value` does not fit
/// schemas/<schema>.
void require_schema(const std::filesystem::path& file, const json::Value& value, const char* schema);

/// How the run folder's files spell numbers: counts as integers, times and rates with three decimals
/// (a non-finite or negative time is written as 0).
json::Value count_value(std::uint64_t n);
json::Value seconds_value(double seconds);
/// A schema-checked integer or number member read back (0 when it does not parse).
std::uint64_t count_of(const json::Value& number);
double number_of(const json::Value& number);

/// Writes `value` atomically (see write_file_atomically); `indent` 0 writes one line.
void write_json_file(const std::filesystem::path& file, const json::Value& value, int indent = 0);

/// Whether write_file_atomically waits for the bytes to reach the disk before the rename.
enum class Durability {
  kSynced,  ///< fsync: the file survives a power loss (findings, state, baselines)
  /// No fsync: still all or nothing when the process dies (a kill -9 leaves the old file or none),
  /// but a power loss may leave an empty file. For what a run can lose without harm: corpus entries.
  kProcessCrash,
};

/// Writes `content` to `path` atomically (same-folder temporary, fsync unless told otherwise,
/// rename). Throws Fatal naming the path on failure (a full disk included), leaving no partial file.
void write_file_atomically(const std::string& path, const std::string& content,
                           Durability durability = Durability::kSynced);

}  // namespace crosscheck::run
