// checker.hpp: the structural check behind Decoder (internal to src/decoder: other modules use decoder.hpp).
//
// Two passes over (IR node, JSON value):
//  1. status: the worst severity the SDKs' checkNode would report for the pair (clean, warning, error),
//     computed once per pair for refs, unions, intersections and union variants (memoized by node and
//     value address, as the SDKs cache by schema and path), so nested unions stay polynomial.
//  2. emit: only when pass 1 found something, walk again where it did, pick union branches from the
//     memo, and write the diagnostics with their JSON Pointer paths.
// Without a coverage sink, on a schema whose refs, unions and intersections form no cycle
// (SchemaIndex::cycle_free), a pair's status is a function of the pair alone, so pass 1 stops at the
// first error of an object, array or intersection and an anyOf at its first match: the same answer
// with less work (with a sink, every node that decides is still visited).
// Both passes bound recursion: value nesting is capped by max_depth, and a (node, value) pair that
// re-enters itself (a reference cycle that consumes no input) is an error instead of a hang.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "decoder/decoder.hpp"
#include "decoder/detail/schema_index.hpp"
#include "json/value.hpp"
#include "schema/ir.hpp"

namespace crosscheck::decoder::detail {

/// Worst severity found; kInProgress only marks memo entries still on the stack.
enum class Status : std::uint8_t { kClean = 0, kWarning = 1, kError = 2, kInProgress = 3 };

class Checker {
 public:
  Checker(const SchemaIndex& index, CoverageSink* coverage, std::size_t max_depth,
          std::size_t max_diagnostics);

  /// Checks `value` against `shape`, appending diagnostics to `out` (at most max_diagnostics);
  /// returns the overall status (kError: rejected).
  Status run(const schema::Shape& shape, const json::Value& value, std::vector<Diagnostic>& out);

 private:
  struct Key {
    const schema::Shape* node;
    const json::Value* value;
    bool operator==(const Key& other) const { return node == other.node && value == other.value; }
  };
  /// Key -> Status by open addressing in one array: a decode inserts one entry per composite pair,
  /// and a node-based map spent an allocation on each. The array comes from a per-thread pool and
  /// its slots carry a generation, so a decode neither allocates nor clears one.
  class Memo {
   public:
    Memo();
    ~Memo();
    Memo(const Memo&) = delete;
    Memo& operator=(const Memo&) = delete;
    /// The entry of `key`; absent, it is inserted as kInProgress and `fresh` is set. The pointer is
    /// valid until the next insertion that grows the table (growths() tells).
    Status* find_or_insert(const Key& key, bool& fresh);
    /// The entry of `key`, or nullptr.
    Status* find(const Key& key);
    std::size_t growths() const { return growths_; }

    struct Slot {
      Key key{nullptr, nullptr};
      std::uint32_t generation = 0;  // the slot is empty unless it equals the memo's generation
      Status status = Status::kClean;
    };

   private:
    struct Pool;
    static Pool& pool();
    std::size_t index_of(const Key& key) const;
    void grow();
    std::vector<Slot> slots_;  // the size is a power of two
    std::uint32_t generation_ = 1;
    std::size_t size_ = 0;
    std::size_t growths_ = 0;
  };
  struct Problem {
    const char* code = "";
    Severity severity = Severity::kError;
    std::string message;
  };

  // Pass 1.
  Status status(const schema::Shape& node, const json::Value& value, std::size_t depth, bool memoize);
  Status evaluate(const schema::Shape& node, const json::Value& value, std::size_t depth);
  Status evaluate_object(const schema::Shape& node, const json::Value& value, std::size_t depth);
  Status evaluate_union(const schema::Shape& node, const json::Value& value, std::size_t depth);
  Status leaf(const schema::Shape& node, const json::Value& value, Problem* problem) const;

  // Pass 2.
  void emit(const schema::Shape& node, const json::Value& value, std::size_t depth);
  void emit_object(const schema::Shape& node, const json::Value& value, std::size_t depth);
  void emit_union(const schema::Shape& node, const json::Value& value, std::size_t depth);
  void add(const char* code, Severity severity, std::string message);

  // Helpers.
  /// Members whose key is not a declared property (for a typed additionalProperties shape).
  std::vector<std::pair<std::string_view, const json::Value*>> undeclared_members(
      const schema::Shape& node, const json::Value& value) const;
  /// Pushes, per property of `node` in order, the value of its last member in `value` (nullptr:
  /// absent) onto members_, at the returned offset; the caller pops them (members_top_ = offset).
  std::size_t push_property_values(const schema::Shape& node, const json::Value& value);
  /// Index of the selected variant of a discriminated union, -1 for an unknown tag, -2 when the
  /// value is not an object or the tag is not a string.
  int select_tagged(const schema::Shape& node, const json::Value& value) const;
  void visit(const schema::Shape& node, bool matched) const;
  bool too_deep(const json::Value& value, std::size_t depth) const;
  /// An error when the check may stop early: nothing after it changes the status.
  bool settled(Status status) const { return stop_early_ && status == Status::kError; }

  const SchemaIndex& index_;
  CoverageSink* coverage_;
  std::size_t max_depth_;
  std::size_t max_diagnostics_;
  bool stop_early_;  // see the header comment
  Memo memo_;
  // push_property_values' stack, one frame per object level (a raw array: std::vector's resize and
  // fill cost more than the lookups).
  std::unique_ptr<const json::Value*[]> members_;
  std::size_t members_top_ = 0, members_capacity_ = 0;
  std::vector<Key> emitting_;  // pass 2's composite pairs on the stack, innermost last
  std::vector<Diagnostic>* out_ = nullptr;
  std::string path_;
};

}  // namespace crosscheck::decoder::detail
