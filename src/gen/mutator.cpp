// mutator.cpp: the Mutation families' names, dispatch and shared helpers (see generator.hpp and
// mutation_context.hpp).
#include <cstddef>
#include <iterator>

#include "decoder/decoder.hpp"
#include "gen/generator.hpp"
#include "gen/mutation_context.hpp"
#include "json/parse.hpp"
#include "json/pointer.hpp"

namespace crosscheck::gen {

namespace {

struct FamilyInfo {
  Mutation mutation;
  const char* name;
  std::optional<Mutant> (*apply)(MutationContext& ctx);
};

// Indexed by the enum value: both expand mutation_families.def in the same order.
constexpr FamilyInfo kFamilies[] = {
#define CROSSCHECK_MUTATION_FAMILY(enumerator, name, function) {Mutation::enumerator, name, &function},
#include "gen/mutation_families.def"
#undef CROSSCHECK_MUTATION_FAMILY
};

// Every family's name, the canonical ones too, indexed by the enum value.
constexpr const char* kNames[] = {
#define CROSSCHECK_MUTATION_FAMILY(enumerator, name, function) name,
#define CROSSCHECK_CANONICAL_MUTATION_FAMILY(enumerator, name, function) name,
#include "gen/mutation_families.def"
#undef CROSSCHECK_CANONICAL_MUTATION_FAMILY
#undef CROSSCHECK_MUTATION_FAMILY
};

const FamilyInfo* family(Mutation m) {
  const auto i = static_cast<std::size_t>(m);
  return i < std::size(kFamilies) ? &kFamilies[i] : nullptr;
}

}  // namespace

const char* mutation_name(Mutation m) {
  const auto i = static_cast<std::size_t>(m);
  return i < std::size(kNames) ? kNames[i] : "unknown";
}

std::vector<Mutation> all_mutations() {
  std::vector<Mutation> out;
  for (const auto& f : kFamilies) out.push_back(f.mutation);
  return out;
}

Mutator::Mutator(const schema::Ir& ir) : ir_(ir), facts_(std::make_shared<const ShapeFacts>(ir)) {}

std::optional<Mutant> Mutator::apply(const schema::Root& root, const json::Value& value, Mutation mutation,
                                     std::uint64_t seed) const {
  std::optional<std::vector<WalkNode>> walked;
  return apply(root, value, mutation, seed, walked);
}

std::optional<Mutant> Mutator::apply(const schema::Root& root, const json::Value& value, Mutation mutation,
                                     std::uint64_t seed, std::optional<std::vector<WalkNode>>& walked) const {
  schema::ShapePtr shape = ir_.root_shape(root);
  if (!shape) return std::nullopt;
  MutationContext ctx{*facts_, root,     *shape,
                      value,   mutation, Rng(mix_seed(seed, 1 + static_cast<std::uint64_t>(mutation))),
                      walked};
  const FamilyInfo* f = family(mutation);
  return f ? f->apply(ctx) : std::nullopt;
}

MutationWalk::MutationWalk() = default;
MutationWalk::~MutationWalk() = default;
MutationWalk::MutationWalk(MutationWalk&&) noexcept = default;
MutationWalk& MutationWalk::operator=(MutationWalk&&) noexcept = default;

Mutant Mutator::any(const schema::Root& root, const json::Value& value, std::uint64_t seed) const {
  MutationWalk walk;  // one walk for every family tried
  return any(root, value, seed, walk);
}

Mutant Mutator::any(const schema::Root& root, const json::Value& value, std::uint64_t seed,
                    MutationWalk& walk) const {
  const std::vector<Mutation> families = all_mutations();
  const std::size_t start = static_cast<std::size_t>(mix_seed(seed, 0) % families.size());
  for (std::size_t k = 0; k < families.size(); ++k) {
    if (auto m = apply(root, value, families[(start + k) % families.size()], seed, walk.nodes_))
      return std::move(*m);
  }
  // Unreachable: the byte order mark applies to every value.
  return Mutant{"\xEF\xBB\xBF", Mutation::kBom, "byte order mark alone", ""};
}

bool has_diagnostic(const decoder::DecodeResult& result, std::string_view path, std::string_view code) {
  for (const auto& d : result.diagnostics) {
    if (d.path == path && d.code == code) return true;
  }
  return false;
}

std::string child_pointer(const std::string& pointer, std::string_view key) {
  std::string out = pointer;
  json::append_pointer_token(out, key);
  return out;
}

json::Value confuse(const json::Value& value) {
  switch (value.kind()) {
    case json::Kind::kNull:
      return json::Value::boolean(false);
    case json::Kind::kBool:
      return json::Value::string(value.as_bool() ? "true" : "false");
    case json::Kind::kNumber:
      return json::Value::string(value.number_text());
    case json::Kind::kString: {
      const std::string& s = value.string_value();
      if (s == "true" || s == "false") return json::Value::boolean(s == "true");
      auto parsed = json::parse(s);
      if (parsed.ok() && parsed.value().is_number()) return json::Value::number(parsed.value().number_text());
      return json::Value::number("0");
    }
    case json::Kind::kArray:
      return json::Value::object();
    case json::Kind::kObject:
      return json::Value::array();
  }
  return json::Value::null();
}

}  // namespace crosscheck::gen
