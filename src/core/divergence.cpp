// divergence.cpp: the divergence classes, by name and rank (divergence_classes.def is their list).
#include "core/divergence.hpp"

#include <iterator>

namespace crosscheck::core {

namespace {

struct ClassInfo {
  DivergenceClass cls;
  const char* name;
};

// Indexed by the enum value: both expand divergence_classes.def in the same order.
constexpr ClassInfo kClassTable[] = {
#define CROSSCHECK_DIVERGENCE_CLASS(enumerator, name) {DivergenceClass::enumerator, name},
#include "core/divergence_classes.def"
#undef CROSSCHECK_DIVERGENCE_CLASS
};

}  // namespace

const char* class_name(DivergenceClass c) {
  const auto i = static_cast<std::size_t>(c);
  return i < std::size(kClassTable) ? kClassTable[i].name : "?";
}

std::optional<DivergenceClass> parse_class(std::string_view name) {
  for (const ClassInfo& c : kClassTable) {
    if (name == c.name) return c.cls;
  }
  return std::nullopt;
}

std::vector<DivergenceClass> all_classes() {
  std::vector<DivergenceClass> out;
  for (const ClassInfo& c : kClassTable) out.push_back(c.cls);
  return out;
}

int class_rank(DivergenceClass c) { return static_cast<int>(c); }

}  // namespace crosscheck::core
