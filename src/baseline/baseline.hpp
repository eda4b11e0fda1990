// baseline.hpp: the known-divergence baseline (crosscheck-baseline/1, schemas/baseline.schema.json).
//
// A baseline is a reviewed file of accepted divergences, one entry per known fault: which
// implementations, which divergences (a bucket pattern, optionally a class and a root) and which
// matrix cases, why, and where the fault is tracked. Matching never parses a signature: a bucket
// pattern is either one bucket id (16 hex digits) or a glob over the whole readable signature, so
// entries keep working however the comparator lays its signatures out, as long as the text they
// name is still in it.
//
// Files are validated against the shipped schema (unknown field, wrong type: an error naming the file,
// the entry's index and id and the field) and then for what a schema cannot say (unique ids, the
// reference among the implementations of an entry that says the reference is wrong).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/divergence.hpp"
#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::baseline {

struct Witness {
  std::string root;
  std::optional<std::string> input;  ///< exact bytes (absent when too big to keep in the file)
  std::string finding;               ///< file it came from ("" if unknown)
  std::string replay;
};

struct Entry {
  std::string id;
  std::vector<std::string> implementations;  ///< names or globs
  std::optional<std::string> bucket;         ///< 16-hex bucket id, or a glob over the signature
  std::vector<std::string> cases;            ///< matrix case ids or globs
  std::optional<std::string> cls;            ///< divergence class name
  std::optional<std::string> root;           ///< glob
  /// The reference (the C++ decoder, verdict/blame.hpp) is the one in the wrong for what the entry
  /// covers: the blame moves to it. Only with the reference among `implementations`.
  bool reference_wrong = false;
  std::string reason, link;
  std::string signature;  ///< informative: the signature seen when the entry was added
  std::optional<Witness> witness;
};

struct Baseline {
  std::string path;
  std::string text;  ///< the file as read (update appends to it without touching a byte of it)
  std::vector<Entry> entries;
};

/// Parses and validates a baseline's text; the error starts with `path` and names the entry and
/// field. Needs schemas/baseline.schema.json (Fatal when crosscheck's own schema is missing).
Result<Baseline, std::string> parse_baseline(std::string text, const std::string& path);
/// Reads and validates a baseline file; throws Fatal (exit 2) with parse_baseline's message.
Baseline load_baseline(const std::string& path);

/// `*` matches any run of characters (also empty); every other character matches itself; the whole
/// text must match. Linear-time in practice (greedy with one backtrack point).
bool glob_match(std::string_view pattern, std::string_view text);
/// Exactly 16 lowercase hex digits (the form of Divergence::bucket).
bool is_bucket_id(std::string_view pattern);

/// Does `entry` cover this divergence of a finding of `root`? Needs a bucket pattern; the class and
/// root when given; and one of the entry's implementations among the divergence's.
bool matches_divergence(const Entry& entry, std::string_view root, const core::Divergence& d);
/// Does `entry` cover matrix case `case_id` failing on `implementation`?
bool matches_case(const Entry& entry, std::string_view implementation, std::string_view case_id);
/// Does one of the entry's implementation patterns name `implementation`?
bool names_implementation(const Entry& entry, std::string_view implementation);

/// The entry as JSON, members in schema order (what update appends).
json::Value entry_to_json(const Entry& entry);

/// `text` (a valid baseline, or "" for a new file) with `entries` appended to its entries array. The
/// bytes of `text` before the array's closing bracket are kept exactly; each new entry is written
/// pretty-printed, indented as an array element.
std::string append_entries(const std::string& text, const std::vector<Entry>& entries);

}  // namespace crosscheck::baseline
