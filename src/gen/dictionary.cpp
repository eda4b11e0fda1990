// dictionary.cpp: libFuzzer dictionary tokens from the IR (see generator.hpp).
#include <algorithm>
#include <unordered_set>

#include "gen/generator.hpp"
#include "json/write.hpp"

namespace crosscheck::gen {

using schema::Shape;
using schema::ShapeKind;

std::vector<std::string> dictionary_tokens(const schema::Ir& ir) {
  // Member names, enum values and string literals (discriminator tags are literals), each as a
  // quoted JSON string: the fuzzer splices them in whole, quotes included.
  std::vector<std::string> out;
  std::unordered_set<const Shape*> seen;
  std::vector<const Shape*> stack;
  for (const auto& [name, type] : ir.types) {
    if (type.shape) stack.push_back(type.shape.get());
  }
  while (!stack.empty()) {
    const Shape* s = stack.back();
    stack.pop_back();
    if (!s || !seen.insert(s).second) continue;
    for (const auto& p : s->properties) {
      out.push_back(json::quote(p.wire_name));
      stack.push_back(p.shape.get());
    }
    for (const auto& set : s->forbidden_property_sets) {
      for (const auto& name : set) out.push_back(json::quote(name));
    }
    if (s->discriminator) out.push_back(json::quote(*s->discriminator));
    if (s->kind == ShapeKind::kLiteral && s->literal.is_string())
      out.push_back(json::quote(s->literal.string_value()));
    if (s->kind == ShapeKind::kEnum) {
      for (const auto& v : s->enum_values) {
        if (v.is_string()) out.push_back(json::quote(v.string_value()));
      }
    }
    if (s->items) stack.push_back(s->items.get());
    if (s->additional_shape) stack.push_back(s->additional_shape.get());
    for (const auto& v : s->variants) stack.push_back(v.get());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace crosscheck::gen
