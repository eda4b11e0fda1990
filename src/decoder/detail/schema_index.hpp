// schema_index.hpp: what the decoder looks up on every check, computed once per Decoder: the
// target of each ref node, the discriminator tag of each variant of each discriminated union, and
// for each object node a hash table from member name to property.
// Immutable after construction, so one Decoder may check on many threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "schema/ir.hpp"

namespace crosscheck::decoder::detail {

/// Member name -> index into an object node's `properties`, by open addressing. The check looks up
/// each member once instead of scanning all members once per property (the profile's top item).
class PropertyTable {
 public:
  PropertyTable() = default;
  explicit PropertyTable(const std::vector<schema::Property>& properties);
  /// Index of the property named `key`, or -1.
  int find(const std::vector<schema::Property>& properties, std::string_view key) const {
    if (slots_.empty()) return -1;
    for (std::size_t i = hash(key) & mask_;; i = (i + 1) & mask_) {
      std::int32_t slot = slots_[i];
      if (slot < 0) return -1;
      if (properties[static_cast<std::size_t>(slot)].wire_name == key) return slot;
    }
  }

 private:
  static std::size_t hash(std::string_view key);
  std::vector<std::int32_t> slots_;  // -1: empty; size a power of two, at most half full
  std::size_t mask_ = 0;
};

class SchemaIndex {
 public:
  explicit SchemaIndex(const schema::Ir& ir);

  /// The shape a ref node names; nullptr if the IR has no such type.
  const schema::Shape* target(const schema::Shape& ref) const {
    const Info* info = info_of(ref);
    return info ? info->target : nullptr;
  }
  /// Per variant of a discriminated union, its tag (nullptr: none), as the SDKs find it: refs and
  /// intersections followed (first conjunct with a tag) to an object property named like the
  /// discriminator whose shape is a string literal.
  const std::vector<const std::string*>& tags(const schema::Shape& union_node) const;
  /// The member-name table of an object node; nullptr for a node this index has not seen (one of
  /// another IR): the check then looks each property up by name.
  const PropertyTable* properties(const schema::Shape& object) const {
    const Info* info = info_of(object);
    return info ? &info->properties : nullptr;
  }
  /// The shape of a root's type when `root` is one of this IR's roots and the type has one; else
  /// nullptr, and the caller looks the type up by name (the decoder does this once per decode, and a
  /// name lookup in the types' map cost 2% of it).
  const schema::Shape* root_shape(const schema::Root& root) const {
    auto at = reinterpret_cast<std::uintptr_t>(&root), first = reinterpret_cast<std::uintptr_t>(roots_);
    if (at < first || at >= first + root_shapes_.size() * sizeof(schema::Root)) return nullptr;
    return root_shapes_[(at - first) / sizeof(schema::Root)];
  }

 private:
  struct Info {
    const schema::Shape* target = nullptr;  // kRef
    std::vector<const std::string*> tags;   // discriminated kUnion
    PropertyTable properties;               // kObject
  };
  /// By the node's dense id (checked against the node: a shape of another IR, or an IR built by hand
  /// with repeated ids, falls back to the map), so the hot lookups are an array access.
  const Info* info_of(const schema::Shape& shape) const {
    if (shape.id < dense_.size() && dense_[shape.id].node == &shape) return &infos_[dense_[shape.id].info];
    return info_by_address(shape);
  }
  const Info* info_by_address(const schema::Shape& shape) const;
  Info& add_info(const schema::Shape& shape);
  const std::string* tag_of(const schema::Shape& variant, const std::string& name, int budget) const;

  struct Dense {
    const schema::Shape* node = nullptr;
    std::size_t info = 0;
  };
  std::vector<Info> infos_;
  std::vector<Dense> dense_;
  std::unordered_map<const schema::Shape*, std::size_t> by_address_;  // ids that were taken already
  const schema::Root* roots_ = nullptr;                               // the IR's roots
  std::vector<const schema::Shape*> root_shapes_;  // per root, its type's shape (nullptr: none)
};

}  // namespace crosscheck::decoder::detail
