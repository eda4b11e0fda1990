// schema_index.hpp: what the decoder looks up on every check, computed once per Decoder: the
// target of each ref node, the discriminator tag of each variant of each discriminated union, and
// for each object node a hash table from member name to property.
// Immutable after construction, so one Decoder may check on many threads.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "schema/ir.hpp"

namespace crosscheck::decoder::detail {

/// Refs, unions and intersections check their value again through other nodes, consuming no input:
/// the checker memoizes them, and only they can form a cycle.
inline bool is_composite(schema::ShapeKind kind) {
  return kind == schema::ShapeKind::kRef || kind == schema::ShapeKind::kUnion ||
         kind == schema::ShapeKind::kIntersection;
}

/// Member name -> index into an object node's `properties`, by open addressing. The check looks up
/// each member once instead of scanning all members once per property (the profile's top item).
class PropertyTable {
 public:
  PropertyTable() = default;
  explicit PropertyTable(const std::vector<schema::Property>& properties);
  /// Index of the property named `key`, or -1.
  int find(const std::vector<schema::Property>& properties, std::string_view key) const {
    if (slots_.empty()) return -1;
    Words words = words_of(key);
    for (std::size_t i = hash(words) & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.property < 0) return -1;
      if (slot.words.size != words.size || slot.words.head != words.head || slot.words.tail != words.tail)
        continue;
      // Up to 16 bytes, the two words hold every byte of the name: equal words are equal names.
      if (words.size <= 16 || properties[static_cast<std::size_t>(slot.property)].wire_name == key)
        return slot.property;
    }
  }

 private:
  /// A name's length and its first and last bytes, in overlapping fixed-size loads (no loop, no
  /// memcpy call): member names are short, and these tell them apart.
  struct Words {
    std::uint64_t head = 0, tail = 0;
    std::size_t size = 0;
  };
  struct Slot {
    Words words;
    std::int32_t property = -1;  // -1: empty
  };
  static Words words_of(std::string_view key) {
    // Lengths 8-16 and 4-7: two overlapping loads from each end; 1-3: the first, middle, last bytes.
    const char* p = key.data();
    std::size_t n = key.size();
    Words w;
    w.size = n;
    if (n >= 8) {
      std::memcpy(&w.head, p, 8);
      std::memcpy(&w.tail, p + n - 8, 8);
    } else if (n >= 4) {
      std::uint32_t a, b;
      std::memcpy(&a, p, 4);
      std::memcpy(&b, p + n - 4, 4);
      w.head = a;
      w.tail = b;
    } else if (n > 0) {
      w.head = static_cast<unsigned char>(p[0]) |
               (static_cast<std::uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8) |
               (static_cast<std::uint64_t>(static_cast<unsigned char>(p[n - 1])) << 16);
    }
    return w;
  }
  static std::size_t hash(const Words& w) {
    std::uint64_t h = (w.head ^ (w.tail >> 7) ^ (w.tail << 29) ^ w.size) * 0x9E3779B97F4A7C15ULL;
    return static_cast<std::size_t>(h >> 40);
  }
  std::vector<Slot> slots_;  // size a power of two, at most half full
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
  /// True when no chain of refs, unions and intersections leads from a node back to itself: no
  /// check can then meet a (node, value) pair again while it is still checking it, so a pair's
  /// status depends on the pair alone, never on the order of the walk (the checker relies on this
  /// to stop early).
  bool cycle_free() const { return cycle_free_; }
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
  bool no_composite_cycle(const std::vector<const schema::Shape*>& composites) const;

  struct Dense {
    const schema::Shape* node = nullptr;
    std::size_t info = 0;
  };
  std::vector<Info> infos_;
  std::vector<Dense> dense_;
  std::unordered_map<const schema::Shape*, std::size_t> by_address_;  // ids that were taken already
  const schema::Root* roots_ = nullptr;                               // the IR's roots
  std::vector<const schema::Shape*> root_shapes_;  // per root, its type's shape (nullptr: none)
  bool cycle_free_ = false;
};

}  // namespace crosscheck::decoder::detail
