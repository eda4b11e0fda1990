// hash_set64.hpp: a set of 64-bit hash values in one array (open addressing, linear probing).
//
// The corpus keeps the hash of every file it wrote or queued, up to --corpus-limit per root (4096 by
// default, 31 roots). In a std::unordered_set<std::size_t> each is a heap node plus a bucket
// pointer, about 40 bytes: 5 MB once every root is full, a fill that went on for minutes after the
// first one of a fast run (docs/memory.md). Here an entry costs 11-21 bytes (at most 3/4 of the
// slots used, and at least 3/8 after a growth).
//
// The values are hashes already (well mixed), so the low bits pick the slot. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace crosscheck::campaign {

class HashSet64 {
 public:
  /// True when `value` was not in the set (it is now).
  bool insert(std::uint64_t value) {
    if (value == kEmpty) {
      if (has_empty_value_) return false;
      has_empty_value_ = true;
      ++size_;
      return true;
    }
    if ((used_ + 1) * 4 > slots_.size() * 3) grow();
    std::size_t i = find_slot(value);
    if (slots_[i] == value) return false;
    slots_[i] = value;
    ++used_;
    ++size_;
    return true;
  }

  /// Removes `value` when it is there.
  void erase(std::uint64_t value) {
    if (value == kEmpty) {
      if (has_empty_value_) --size_;
      has_empty_value_ = false;
      return;
    }
    if (slots_.empty()) return;
    std::size_t hole = find_slot(value);
    if (slots_[hole] != value) return;
    // Backward shift: later entries of the probe run move into the hole when their home slot does
    // not lie after it (cyclically), so that every entry stays reachable from its home without
    // tombstones.
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t next = (hole + 1) & mask; slots_[next] != kEmpty; next = (next + 1) & mask) {
      const std::size_t home = slots_[next] & mask;
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        slots_[hole] = slots_[next];
        hole = next;
      }
    }
    slots_[hole] = kEmpty;
    --used_;
    --size_;
  }

  bool contains(std::uint64_t value) const {
    if (value == kEmpty) return has_empty_value_;
    return !slots_.empty() && slots_[find_slot(value)] == value;
  }

  std::size_t size() const { return size_; }
  /// Bytes of the slot array (the set's whole heap use).
  std::size_t allocated_bytes() const { return slots_.capacity() * sizeof(std::uint64_t); }

 private:
  static constexpr std::uint64_t kEmpty = 0;  // an empty slot; the value 0 itself is has_empty_value_

  // The slot holding `value`, or the empty slot where it would go.
  std::size_t find_slot(std::uint64_t value) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = value & mask;
    while (slots_[i] != kEmpty && slots_[i] != value) i = (i + 1) & mask;
    return i;
  }

  void grow() {
    std::vector<std::uint64_t> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, kEmpty);
    for (std::uint64_t v : old) {
      if (v != kEmpty) slots_[find_slot(v)] = v;
    }
  }

  std::vector<std::uint64_t> slots_;  // a power of two in size, or empty
  std::size_t used_ = 0;              // non-empty slots
  std::size_t size_ = 0;              // values, the value 0 included
  bool has_empty_value_ = false;
};

}  // namespace crosscheck::campaign
