// summary_keys.hpp: the members of summary.json (schemas/summary.schema.json), named once; only its
// reader and writer, run/summary_file.cpp, uses them.
#pragma once

namespace crosscheck::run::summary_key {

inline constexpr const char* kFormat = "format";
inline constexpr const char* kCrosscheckVersion = "crosscheckVersion";
inline constexpr const char* kSeed = "seed";
inline constexpr const char* kElapsed = "elapsed";
inline constexpr const char* kGenerated = "generated";
inline constexpr const char* kSent = "sent";
inline constexpr const char* kDivergentInputs = "divergentInputs";
inline constexpr const char* kContractInputs = "contractInputs";
inline constexpr const char* kBuckets = "buckets";
inline constexpr const char* kFindings = "findings";
inline constexpr const char* kByClass = "byClass";
inline constexpr const char* kByRoot = "byRoot";
inline constexpr const char* kByImplementation = "byImplementation";
inline constexpr const char* kByLayer = "byLayer";
inline constexpr const char* kCanonicalLeftOut = "canonicalLeftOut";
inline constexpr const char* kCoveragePercent = "coveragePercent";
inline constexpr const char* kCoverage = "coverage";
inline constexpr const char* kStrict = "strict";
inline constexpr const char* kInterrupted = "interrupted";
inline constexpr const char* kImplementations = "implementations";
inline constexpr const char* kSkewTable = "skewTable";
inline constexpr const char* kBucketRoots = "bucketRoots";
inline constexpr const char* kSkewedRoots = "skewedRoots";
inline constexpr const char* kRoots = "roots";
inline constexpr const char* kLayers = "layers";
inline constexpr const char* kInputs = "inputs";
inline constexpr const char* kMerged = "merged";
inline constexpr const char* kSession = "session";

}  // namespace crosscheck::run::summary_key
