// canonical_walk.cpp: what the layer-2 mutation families (canonical_mutations.cpp) work on and how
// one is picked: the instance walked with the schema nodes that apply at each position, the table of
// families from mutation_families.def, a family's seeded context, and the mutant's description.
#include <iterator>

#include "gen/canonical_context.hpp"
#include "json/equal.hpp"
#include "json/pointer.hpp"
#include "json/write.hpp"

namespace crosscheck::gen {

using json::SchemaNode;
using json::Value;

namespace {

/// The nodes that apply to `v` given `conj`: through $ref, allOf, the accepting anyOf/oneOf
/// branches and the if/then/else side taken.
void applying(const SchemaNode* n, const Value& v, std::vector<const SchemaNode*>& out, int guard) {
  if (!n || n->boolean || guard > 64) return;
  if (std::find(out.begin(), out.end(), n) != out.end()) return;
  out.push_back(n);
  if (n->ref) applying(n->ref, v, out, guard + 1);
  for (const SchemaNode* a : n->all_of) applying(a, v, out, guard + 1);
  for (const SchemaNode* a : n->any_of)
    if (node_accepts(*a, v)) applying(a, v, out, guard + 1);
  for (const SchemaNode* a : n->one_of)
    if (node_accepts(*a, v)) applying(a, v, out, guard + 1);
  if (n->if_schema)
    applying(node_accepts(*n->if_schema, v) ? n->then_schema : n->else_schema, v, out, guard + 1);
}

void walk_into(const std::vector<const SchemaNode*>& conj, const Value& v, const CanonicalPosition* parent,
               std::size_t step, std::deque<CanonicalPosition>& out) {
  CanonicalPosition& here = out.emplace_back();
  here.parent = parent;
  here.step = step;
  here.value = &v;
  for (const SchemaNode* n : conj) applying(n, v, here.nodes, 0);
  if (v.is_object()) {
    for (std::size_t i = 0; i < v.members().size(); ++i) {
      std::vector<const SchemaNode*> child;
      for (const SchemaNode* n : here.nodes) {
        if (auto it = n->property_index.find(v.members()[i].key); it != n->property_index.end()) {
          child.push_back(it->second);
        } else if (n->additional) {
          child.push_back(n->additional);
        }
      }
      walk_into(child, v.members()[i].value, &here, i, out);
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      std::vector<const SchemaNode*> child;
      for (const SchemaNode* n : here.nodes)
        if (n->items) child.push_back(n->items);
      walk_into(child, v.items()[i], &here, i, out);
    }
  }
}

struct FamilyInfo {
  Mutation mutation;
  std::optional<Mutant> (*apply)(CanonicalContext& ctx);
};

constexpr FamilyInfo kCanonicalFamilies[] = {
#define CROSSCHECK_MUTATION_FAMILY(enumerator, name, function)
#define CROSSCHECK_CANONICAL_MUTATION_FAMILY(enumerator, name, function) {Mutation::enumerator, &function},
#include "gen/mutation_families.def"
#undef CROSSCHECK_CANONICAL_MUTATION_FAMILY
#undef CROSSCHECK_MUTATION_FAMILY
};

const FamilyInfo* canonical_family(Mutation m) {
  for (const FamilyInfo& f : kCanonicalFamilies)
    if (f.mutation == m) return &f;
  return nullptr;
}

constexpr std::uint64_t kFamilyStream = 0x43414e4d;  // "CANM"

/// FNV-1a of a document name: the same seed draws differently in different documents (std::hash
/// is not the same in every standard library, and a seed must replay everywhere).
std::uint64_t name_hash(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

}  // namespace

std::deque<CanonicalPosition> canonical_walk(const SchemaNode& root, const Value& value) {
  std::deque<CanonicalPosition> out;
  walk_into({&root}, value, nullptr, 0, out);
  return out;
}

std::vector<std::size_t> CanonicalPosition::steps() const {
  std::vector<std::size_t> out;
  for (const CanonicalPosition* p = this; p->parent; p = p->parent) out.push_back(p->step);
  std::reverse(out.begin(), out.end());
  return out;
}

std::string CanonicalPosition::path() const {
  std::vector<const CanonicalPosition*> chain;
  for (const CanonicalPosition* p = this; p->parent; p = p->parent) chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Value& in = *(*it)->parent->value;
    if (in.is_object()) {
      json::append_pointer_token(out, in.members()[(*it)->step].key);
    } else {
      out += "/" + std::to_string((*it)->step);
    }
  }
  return out;
}

Value& value_at(Value& root, const std::vector<std::size_t>& steps) {
  Value* at = &root;
  for (std::size_t i : steps) at = at->is_object() ? &at->members()[i].value : &at->items()[i];
  return *at;
}

Mutant CanonicalContext::make(const Value& edited, const std::string& edge, const std::string& path) const {
  std::optional<json::Validation> verdict = generator.validator().validate_value(document, edited);
  std::string said = verdict && verdict->valid ? "valid" : "invalid";
  if (verdict && !verdict->implementation_defined.empty()) {
    said += " (implementation-defined:";
    for (const std::string& t : verdict->implementation_defined) said += " " + t;
    said += ")";
  }
  return Mutant{json::write(edited), mutation,
                edge + " at " + (path.empty() ? "the root" : path) + "; reference: " + said, path};
}

std::vector<Mutation> canonical_mutations() {
  std::vector<Mutation> out;
  for (const FamilyInfo& f : kCanonicalFamilies) out.push_back(f.mutation);
  return out;
}

std::optional<Mutant> CanonicalGenerator::mutate(std::string_view document, const Value& value,
                                                 Mutation family, std::uint64_t seed) const {
  const SchemaNode* root = validator_.root(document);
  const FamilyInfo* f = canonical_family(family);
  if (!root || !f) return std::nullopt;
  CanonicalContext ctx{
      *this,
      std::string(document),
      value,
      family,
      Rng(mix_seed(seed ^ name_hash(document), kFamilyStream + static_cast<std::uint64_t>(family))),
      canonical_walk(*root, value)};
  return f->apply(ctx);
}

std::optional<Mutant> CanonicalGenerator::any_mutant(std::string_view document, const Value& value,
                                                     std::uint64_t seed) const {
  const std::vector<Mutation> families = canonical_mutations();
  const std::size_t start = static_cast<std::size_t>(mix_seed(seed, kFamilyStream) % families.size());
  for (std::size_t k = 0; k < families.size(); ++k) {
    if (auto m = mutate(document, value, families[(start + k) % families.size()], seed)) return m;
  }
  return std::nullopt;
}

}  // namespace crosscheck::gen
