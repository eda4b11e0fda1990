// blame.hpp: which implementations deviate in a divergence, and on what basis.
//
// The decoding contract has a reference implementation, the C++ decoder (crosscheck's own, run in
// process as "cpp"). For a contract divergence the deviating implementations are those whose answer
// differs from the reference's, however many they are: when every SDK accepts 2^53 in an integer slot
// and the reference rejects it, every SDK deviates. Only an implementation-defined divergence, where
// the contract leaves the answer open, is decided by a majority vote, and the result says so. A
// baseline entry can record that the reference itself is wrong for a bucket; the blame then moves to
// the reference and to those that answered as it did.
//
// What is compared is what the divergence is about: the outcome for acceptance (or "parsed the text"
// against "rejected it as JSON" for a divergence at the level of the text), the warning multiset for
// warnings, the error set for diagnostics. Crashes, timeouts, SDK errors, protocol breaks and round
// trips are the failure of the implementations they name. Layer 3 (scenarios run): contextual-acceptance
// and request-admission compare outcomes as acceptance does (accepted = derived or admitted);
// contextual-result lists as involved the reference and the clients the scenario verdict found
// differing from it, so those are the deviating ones; contextual-expectation is the client's own.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"

namespace crosscheck::verdict {

/// The name of the contract's reference among the implementations of a run: the C++ decoder.
inline constexpr std::string_view kReferenceImplementation = core::kReferenceImplementation;

/// The reference itself ("cpp"), or the same decoder on another member's schema ("cpp@python", the
/// reference of a skewed member's schema group).
bool is_reference(std::string_view implementation);

/// What the deviating implementations were told apart by.
enum class Basis {
  kReference,       ///< they differ from the reference (contract divergences; an implementation-defined tie)
  kReferenceWrong,  ///< a baseline entry says the reference is wrong: it and those answering as it did
  kMajority,        ///< implementation-defined: they differ from the answer most implementations gave
  kOwnFailure,      ///< a crash, timeout, SDK error, protocol break or round trip of the ones named
  kUndecided,       ///< no reference among them and no majority: every implementation involved
};

/// "reference", "reference-wrong", "majority", "own-failure", "undecided" (reports and buckets.jsonl).
const char* basis_name(Basis basis);

struct Blame {
  std::vector<std::string> deviating;  ///< sorted; a subset of the divergence's implementations
  Basis basis = Basis::kUndecided;
  std::string reference;  ///< the reference compared against, when one was ("cpp", "cpp@python")

  /// One phrase for a report: "differs from the reference cpp", "the reference cpp is wrong (baseline)",
  /// "differs from the majority (implementation-defined)", ...
  std::string explanation() const;
};

struct BlameOptions {
  /// A baseline entry covering this bucket records that the reference is wrong for it.
  bool reference_wrong = false;
};

/// The blame of divergence `d`, as shown by `results` (the results of the finding it was seen in).
Blame blame(const core::Divergence& d, const std::vector<core::ImplResult>& results,
            const BlameOptions& options = {});

}  // namespace crosscheck::verdict
