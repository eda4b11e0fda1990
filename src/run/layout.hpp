// layout.hpp: the files of a run folder and the format version each one carries.
//
// A run folder is what `crosscheck fuzz --out DIR` (or `run --out DIR`, `merge --out DIR`) writes.
// Every name and format id lives here so that a new file or a new version is taught to one place.
#pragma once

#include <string>

namespace crosscheck::run {

inline constexpr const char* kRunFile = "run.json";            ///< the run's configuration
inline constexpr const char* kStateFile = "state.json";        ///< where a resume starts
inline constexpr const char* kSummaryFile = "summary.json";    ///< written when the run ends
inline constexpr const char* kCoverageFile = "coverage.json";  ///< schema coverage reached
inline constexpr const char* kRuleCoverageFile =
    "rule-coverage.json";                                     ///< layer 3: the reference host's rules reached
inline constexpr const char* kEventLogFile = "events.jsonl";  ///< append-only event log
inline constexpr const char* kBaselineCheckFile = "baseline-check.json";  ///< the check against a baseline
inline constexpr const char* kVerdictFile = "verdict.json";               ///< the verdict last decided
inline constexpr const char* kMergeFile = "merge.json";                   ///< the runs a merge stands for
inline constexpr const char* kFindingsDir = "findings";                   ///< one file per finding
inline constexpr const char* kReportDir = "report";                       ///< report.html, junit.xml, ...
inline constexpr const char* kCorpusDir = "corpus";                       ///< interesting inputs per root

/// The "format" member of each versioned file.
inline constexpr const char* kRunFormat = "crosscheck-fuzz/1";
inline constexpr const char* kSummaryFormat = "crosscheck-summary/1";
inline constexpr const char* kFindingFormat = "crosscheck-finding/1";
inline constexpr const char* kBaselineCheckFormat = "crosscheck-baseline-check/1";
inline constexpr const char* kVerdictFormat = "crosscheck-verdict/1";
inline constexpr const char* kMergeFormat = "crosscheck-merge/1";

/// The JSON Schema (schemas/<name>) of each file.
inline constexpr const char* kRunSchema = "run.schema.json";
inline constexpr const char* kStateSchema = "state.schema.json";
inline constexpr const char* kSummarySchema = "summary.schema.json";
inline constexpr const char* kCoverageSchema = "coverage.schema.json";
inline constexpr const char* kEventSchema = "run-event.schema.json";
inline constexpr const char* kBaselineCheckSchema = "baseline-check.schema.json";
inline constexpr const char* kFindingSchema = "finding.schema.json";
inline constexpr const char* kVerdictSchema = "verdict.schema.json";
inline constexpr const char* kMergeSchema = "merge.schema.json";
/// One line of report/buckets.jsonl.
inline constexpr const char* kReportBucketSchema = "report-bucket.schema.json";

}  // namespace crosscheck::run
