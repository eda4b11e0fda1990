// mutator.cpp: the Mutation families' names, dispatch and shared helpers (see generator.hpp and
// mutation_context.hpp).
#include <array>

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
};

// Appended families go last: a family's draws come from mix_seed(seed, 1 + its enum value), and
// Mutator::any starts at a seed-drawn index into this list.
constexpr std::array<FamilyInfo, 21> kFamilies = {{
    {Mutation::kUnknownMember, "unknown-member"},   {Mutation::kUnknownEnum, "unknown-enum"},
    {Mutation::kUnknownTag, "unknown-tag"},         {Mutation::kBrokenKnownVariant, "broken-known-variant"},
    {Mutation::kAmbiguousUnion, "ambiguous-union"}, {Mutation::kForbiddenProperty, "forbidden-property"},
    {Mutation::kForbiddenNull, "forbidden-null"},   {Mutation::kAbsentNull, "absent-null"},
    {Mutation::kDropRequired, "drop-required"},     {Mutation::kIntegerEdge, "integer-edge"},
    {Mutation::kNumberSpelling, "number-spelling"}, {Mutation::kDeepNesting, "deep-nesting"},
    {Mutation::kDuplicateKey, "duplicate-key"},     {Mutation::kStringEdge, "string-edge"},
    {Mutation::kTypeConfusion, "type-confusion"},   {Mutation::kEmptyContainer, "empty-container"},
    {Mutation::kInvalidUtf8, "invalid-utf8"},       {Mutation::kBom, "bom"},
    {Mutation::kWhitespace, "whitespace"},          {Mutation::kByteLevel, "byte-level"},
    {Mutation::kOpaqueNumber, "opaque-number"},
}};

std::optional<Mutant> dispatch(MutationContext& ctx) {
  switch (ctx.mutation) {
    case Mutation::kUnknownMember:
      return mutate_unknown_member(ctx);
    case Mutation::kUnknownEnum:
      return mutate_unknown_enum(ctx);
    case Mutation::kUnknownTag:
      return mutate_unknown_tag(ctx);
    case Mutation::kBrokenKnownVariant:
      return mutate_broken_known_variant(ctx);
    case Mutation::kAmbiguousUnion:
      return mutate_ambiguous_union(ctx);
    case Mutation::kForbiddenProperty:
      return mutate_forbidden(ctx, false);
    case Mutation::kForbiddenNull:
      return mutate_forbidden(ctx, true);
    case Mutation::kAbsentNull:
      return mutate_absent_null(ctx);
    case Mutation::kDropRequired:
      return mutate_drop_required(ctx);
    case Mutation::kIntegerEdge:
      return mutate_integer_edge(ctx);
    case Mutation::kNumberSpelling:
      return mutate_number_spelling(ctx);
    case Mutation::kDeepNesting:
      return mutate_deep_nesting(ctx);
    case Mutation::kDuplicateKey:
      return mutate_duplicate_key(ctx);
    case Mutation::kStringEdge:
      return mutate_string_edge(ctx);
    case Mutation::kTypeConfusion:
      return mutate_type_confusion(ctx);
    case Mutation::kEmptyContainer:
      return mutate_empty_container(ctx);
    case Mutation::kInvalidUtf8:
      return mutate_invalid_utf8(ctx);
    case Mutation::kBom:
      return mutate_bom(ctx);
    case Mutation::kWhitespace:
      return mutate_whitespace(ctx);
    case Mutation::kByteLevel:
      return mutate_byte_level(ctx);
    case Mutation::kOpaqueNumber:
      return mutate_opaque_number(ctx);
  }
  return std::nullopt;
}

}  // namespace

const char* mutation_name(Mutation m) {
  for (const auto& f : kFamilies) {
    if (f.mutation == m) return f.name;
  }
  return "unknown";
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
  return dispatch(ctx);
}

Mutant Mutator::any(const schema::Root& root, const json::Value& value, std::uint64_t seed) const {
  const std::vector<Mutation> families = all_mutations();
  const std::size_t start = static_cast<std::size_t>(mix_seed(seed, 0) % families.size());
  std::optional<std::vector<WalkNode>> walked;  // one walk for every family tried
  for (std::size_t k = 0; k < families.size(); ++k) {
    if (auto m = apply(root, value, families[(start + k) % families.size()], seed, walked))
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
