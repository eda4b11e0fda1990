// value_diff.cpp: a bounded semantic diff.
#include "layers/contextual/rows/value_diff.hpp"

#include "json/equal.hpp"
#include "json/pointer.hpp"

namespace crosscheck::scenario {
namespace {

void diff(const json::Value& a, const json::Value& b, std::string& at, std::vector<std::string>& out,
          std::size_t limit) {
  if (out.size() >= limit) return;
  if (a.is_object() && b.is_object()) {
    auto visit = [&](const std::string& key, const json::Value* x, const json::Value* y) {
      std::size_t size = at.size();
      json::append_pointer_token(at, key);
      if (!x || !y) {
        if (out.size() < limit) out.push_back(at);
      } else {
        diff(*x, *y, at, out, limit);
      }
      at.resize(size);
    };
    for (const auto& m : a.members()) {
      if (a.find(m.key) == &m.value) visit(m.key, &m.value, b.find(m.key));  // last duplicate only
    }
    for (const auto& m : b.members()) {
      if (!a.find(m.key) && b.find(m.key) == &m.value) visit(m.key, nullptr, &m.value);
    }
    return;
  }
  if (a.is_array() && b.is_array() && a.items().size() == b.items().size()) {
    for (std::size_t i = 0; i < a.items().size(); ++i) {
      std::size_t size = at.size();
      at += "/" + std::to_string(i);
      diff(a.items()[i], b.items()[i], at, out, limit);
      at.resize(size);
    }
    return;
  }
  if (!json::semantically_equal(a, b)) out.push_back(at);
}

}  // namespace

std::vector<std::string> differing_pointers(const json::Value& a, const json::Value& b, std::size_t limit) {
  std::vector<std::string> out;
  std::string at;
  diff(a, b, at, out, limit);
  return out;
}

}  // namespace crosscheck::scenario
