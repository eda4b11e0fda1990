// schema_coverage.cpp: node bookkeeping for schema coverage.
#include "campaign/schema_coverage.hpp"

#include <algorithm>
#include <functional>

namespace crosscheck::campaign {
namespace {

bool outcome_deciding(const schema::Shape& s) {
  switch (s.kind) {
    case schema::ShapeKind::kUnion:
    case schema::ShapeKind::kEnum:
    case schema::ShapeKind::kLiteral:
      return true;
    case schema::ShapeKind::kObject:
      return !s.forbidden_property_sets.empty() ||
             std::any_of(s.properties.begin(), s.properties.end(), [](const auto& p) { return p.required; });
    default:
      return false;
  }
}

}  // namespace

SchemaCoverage::SchemaCoverage(const schema::Ir& ir)
    : by_id_(ir.node_count, nullptr), flags_(ir.node_count, 0) {
  // Only nodes a root can reach count: a definition no root uses can never be exercised.
  std::vector<bool> seen(ir.node_count, false);
  std::function<void(const schema::ShapePtr&, bool)> walk = [&](const schema::ShapePtr& s, bool arm) {
    if (!s || s->id >= seen.size() || seen[s->id]) return;
    seen[s->id] = true;
    // Union arms are tracked whatever their kind: reaching an arm is what decides a union.
    if (arm || outcome_deciding(*s)) {
      by_id_[s->id] = s.get();
      ++tracked_count_;
    }
    for (const auto& p : s->properties) walk(p.shape, false);
    walk(s->items, false);
    walk(s->additional_shape, false);
    for (const auto& v : s->variants) walk(v, s->kind == schema::ShapeKind::kUnion);
    if (s->kind == schema::ShapeKind::kRef) {
      if (const schema::NamedType* t = ir.find_type(s->ref)) walk(t->shape, false);
    }
  };
  for (const auto& root : ir.roots) {
    if (const schema::NamedType* t = ir.find_type(root.public_name)) walk(t->shape, false);
  }
}

void SchemaCoverage::Probe::visit(const schema::Shape& node, bool) { nodes.push_back(node.id); }

bool SchemaCoverage::finish(const Probe& probe, bool accepted) {
  bool fresh = false;
  std::uint8_t bit = accepted ? 1 : 2;
  for (std::uint32_t id : probe.nodes) {
    if (id >= by_id_.size() || !by_id_[id]) continue;
    if (!(flags_[id] & bit)) {
      flags_[id] |= bit;
      fresh = true;
    }
  }
  return fresh;
}

std::size_t SchemaCoverage::reached_accepted() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < flags_.size(); ++i) n += by_id_[i] && (flags_[i] & 1);
  return n;
}

std::size_t SchemaCoverage::reached_rejected() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < flags_.size(); ++i) n += by_id_[i] && (flags_[i] & 2);
  return n;
}

double SchemaCoverage::percent() const {
  if (tracked_count_ == 0) return 100.0;
  return 100.0 * static_cast<double>(reached_accepted() + reached_rejected()) /
         static_cast<double>(2 * tracked_count_);
}

std::vector<std::string> SchemaCoverage::never_accepted() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < flags_.size(); ++i) {
    if (by_id_[i] && !(flags_[i] & 1)) out.push_back(by_id_[i]->source);
  }
  return out;
}

std::vector<std::string> SchemaCoverage::never_rejected() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < flags_.size(); ++i) {
    if (by_id_[i] && !(flags_[i] & 2)) out.push_back(by_id_[i]->source);
  }
  return out;
}

json::Value SchemaCoverage::to_json() const {
  json::Value o = json::Value::object();
  o.add("tracked", json::Value::number(std::to_string(tracked_count_)));
  o.add("reachedAccepted", json::Value::number(std::to_string(reached_accepted())));
  o.add("reachedRejected", json::Value::number(std::to_string(reached_rejected())));
  o.add("percent", json::Value::number(std::to_string(percent())));
  json::Value flags = json::Value::array();
  for (std::size_t i = 0; i < flags_.size(); ++i) {
    if (by_id_[i] && flags_[i]) {
      json::Value pair = json::Value::array();
      pair.push(json::Value::number(std::to_string(i)));
      pair.push(json::Value::number(std::to_string(flags_[i])));
      flags.push(std::move(pair));
    }
  }
  o.add("flags", std::move(flags));
  json::Value missing = json::Value::object();
  json::Value na = json::Value::array(), nr = json::Value::array();
  for (const auto& s : never_accepted()) na.push(json::Value::string(s));
  for (const auto& s : never_rejected()) nr.push(json::Value::string(s));
  missing.add("neverAccepted", std::move(na));
  missing.add("neverRejected", std::move(nr));
  o.add("unreached", std::move(missing));
  return o;
}

void SchemaCoverage::merge_json(const json::Value& saved) {
  const json::Value* flags = saved.is_object() ? saved.find("flags") : nullptr;
  if (!flags || !flags->is_array()) return;
  for (const auto& pair : flags->items()) {
    if (!pair.is_array() || pair.items().size() != 2) continue;
    std::size_t id = std::stoul(pair.items()[0].number_text());
    auto bits = static_cast<std::uint8_t>(std::stoul(pair.items()[1].number_text()));
    if (id < flags_.size() && by_id_[id]) flags_[id] |= bits & 3;
  }
}

}  // namespace crosscheck::campaign
