// schema_index.hpp: what the decoder looks up on every check, computed once per Decoder: the
// target of each ref node and the discriminator tag of each variant of each discriminated union.
// Immutable after construction, so one Decoder may check on many threads.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "schema/ir.hpp"

namespace crosscheck::decoder::detail {

class SchemaIndex {
 public:
  explicit SchemaIndex(const schema::Ir& ir);

  /// The shape a ref node names; nullptr if the IR has no such type.
  const schema::Shape* target(const schema::Shape& ref) const;
  /// Per variant of a discriminated union, its tag (nullptr: none), as the SDKs find it: refs and
  /// intersections followed (first conjunct with a tag) to an object property named like the
  /// discriminator whose shape is a string literal.
  const std::vector<const std::string*>& tags(const schema::Shape& union_node) const;

 private:
  void add(const schema::Shape& shape);
  const std::string* tag_of(const schema::Shape& variant, const std::string& name, int budget) const;

  const schema::Ir& ir_;
  std::unordered_map<const schema::Shape*, const schema::Shape*> targets_;
  std::unordered_map<const schema::Shape*, std::vector<const std::string*>> tags_;
};

}  // namespace crosscheck::decoder::detail
