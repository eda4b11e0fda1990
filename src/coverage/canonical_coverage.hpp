// canonical_coverage.hpp: layer-2 schema coverage: which schema nodes of the reference canonical
// validator (src/canonical, compiled by json/schema_compile.cpp) the inputs made pass and fail.
//
// A node is one schema location ("<document>#<JSON Pointer>", a compiled json::SchemaNode; a $ref
// target is one node however many places refer to it). The tracked nodes are those reachable from
// the schema document of some root of the IR (canonical::root_document; $defs no document reaches
// are not counted) where both outcomes are possible:
//   - it can fail: it is the `false` schema, or has a keyword of its own that can fail (type, const,
//     enum, minLength > 0, maxLength, pattern, format, minimum, minItems > 0, maxItems, uniqueItems,
//     contains, minProperties > 0, required, a oneOf of two or more, a `not` whose schema can pass),
//     or a subschema it always or sometimes applies can fail ($ref, allOf, properties, items,
//     additionalProperties, propertyNames, then/else, an anyOf whose every branch can);
//   - it can pass: not the `false` schema, and nothing it applies to every value can never pass
//     ($ref, allOf, every anyOf/oneOf branch, a `not` whose schema cannot fail, a required member
//     whose schema is `false` or forbidden by additionalProperties: false, both sides of an if).
// Both are least fixed points over the node graph (the keywords' facts are exact; contradictions
// between keywords, e.g. type string with const 1, are not looked for, so a node is at worst
// tracked although one outcome cannot happen: the unreached lists then show it). So `true`, `{}`,
// annotation-only nodes and `additionalProperties: false` (which only ever fails) are not tracked.
//
// The figure is the share of tracked nodes reached in both outcomes; percent_pairs() is the share of
// (node, outcome) pairs. evaluated() may run on one thread (the sender's, where the reference
// validates) while another reads the figures: the flags are atomic.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "json/schema_validator.hpp"
#include "run/coverage_file.hpp"
#include "schema/ir.hpp"

namespace crosscheck::campaign {

class CanonicalCoverage : public json::NodeSink {
 public:
  /// Tracks the nodes of `validator` (which must outlive this) reachable from the documents of `ir`'s
  /// roots (`ir` is the schema source the validator was built from).
  CanonicalCoverage(const canonical::CanonicalValidator& validator, const schema::Ir& ir);
  /// The same for the documents named (tests: a schema of one document).
  CanonicalCoverage(const canonical::CanonicalValidator& validator,
                    const std::vector<std::string>& documents);

  /// json::NodeSink: a node's outcome on some value.
  void evaluated(std::uint32_t node, bool passed) override;

  std::size_t tracked() const { return tracked_count_; }
  bool is_tracked(std::uint32_t node) const { return node < tracked_.size() && tracked_[node]; }
  std::size_t reached_passed() const;
  std::size_t reached_failed() const;
  std::size_t reached_both() const;
  /// Tracked nodes reached in both outcomes, in percent (100 when nothing is tracked).
  double percent() const { return figures().percent(); }
  /// Locations of tracked nodes never seen to pass (to fail).
  std::vector<std::string> never_passed() const;
  std::vector<std::string> never_failed() const;

  run::CanonicalCoverageFigures figures() const;
  /// coverage.json's "canonical" (run/coverage_file.hpp writes it).
  run::CanonicalCoverageFile to_file() const;
  /// Adds the flags of a saved file (same schema source, so the same ids); ignores unknown ids.
  void restore(const run::CanonicalCoverageFile& saved);
  /// "88.2% of the 850 schema nodes that can both pass and fail reached in both (passed 840, failed 760)"
  std::string describe() const;

 private:
  void track(const std::vector<const json::SchemaNode*>& roots);

  const json::SchemaSet& set_;
  std::vector<std::uint8_t> tracked_;                   // by node id
  std::unique_ptr<std::atomic<std::uint8_t>[]> flags_;  // by node id: bit 0 passed, bit 1 failed
  std::size_t tracked_count_ = 0;
};

}  // namespace crosscheck::campaign
