// canonical_coverage.cpp: which reference-validator nodes can both pass and fail, and their outcomes.
#include "coverage/canonical_coverage.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "json/schema_node.hpp"

namespace crosscheck::campaign {
namespace {

using json::SchemaNode;

constexpr std::uint8_t kPassed = 1, kFailed = 2;

/// Every subschema `n` may evaluate on the same value or a part of it.
std::vector<const SchemaNode*> children(const SchemaNode& n) {
  std::vector<const SchemaNode*> out;
  for (const SchemaNode* s : {n.ref, n.items, n.contains, n.additional, n.property_names, n.not_schema,
                              n.if_schema, n.then_schema, n.else_schema})
    if (s) out.push_back(s);
  for (const auto& [name, s] : n.properties) out.push_back(s);
  for (const auto* list : {&n.all_of, &n.any_of, &n.one_of})
    out.insert(out.end(), list->begin(), list->end());
  return out;
}

bool all_types(const std::vector<std::string>& types) {
  std::set<std::string> t(types.begin(), types.end());
  for (const char* k : {"null", "boolean", "object", "array", "string"})
    if (!t.count(k)) return false;
  return t.count("number") > 0;
}

/// A keyword of `n`'s own (not a subschema's) that some value fails.
bool own_keyword_can_fail(const SchemaNode& n) {
  return (!n.types.empty() && !all_types(n.types)) || n.const_value || n.enum_values ||
         (n.min_length && *n.min_length > 0) || n.max_length || n.pattern ||
         n.format != json::Format::kNone || n.minimum || (n.min_items && *n.min_items > 0) || n.max_items ||
         n.unique_items || n.contains || (n.min_properties && *n.min_properties > 0) || !n.required.empty() ||
         n.one_of.size() > 1;
}

struct Possible {
  std::vector<std::uint8_t> can_fail, can_pass;  // by node id
};

/// The least fixed point of "some value fails it" and "some value passes it" over `nodes`.
Possible analyse(const std::vector<const SchemaNode*>& nodes, std::size_t count) {
  Possible p{std::vector<std::uint8_t>(count, 0), std::vector<std::uint8_t>(count, 0)};
  auto fails = [&](const SchemaNode* s) { return s && p.can_fail[s->id]; };
  auto passes = [&](const SchemaNode* s) { return !s || p.can_pass[s->id]; };
  for (bool changed = true; changed;) {
    changed = false;
    for (const SchemaNode* n : nodes) {
      if (!p.can_fail[n->id]) {
        bool f;
        if (n->boolean) {
          f = !*n->boolean;
        } else {
          f = own_keyword_can_fail(*n) || fails(n->ref) || fails(n->items) || fails(n->additional) ||
              fails(n->property_names) || fails(n->then_schema) || fails(n->else_schema) ||
              (n->not_schema && passes(n->not_schema)) ||
              std::any_of(n->all_of.begin(), n->all_of.end(), fails) ||
              std::any_of(n->properties.begin(), n->properties.end(),
                          [&](const auto& m) { return fails(m.second); }) ||
              (!n->any_of.empty() && std::all_of(n->any_of.begin(), n->any_of.end(), fails)) ||
              (n->one_of.size() == 1 && fails(n->one_of[0]));
        }
        if (f) p.can_fail[n->id] = changed = true;
      }
      if (!p.can_pass[n->id]) {
        bool ok;
        if (n->boolean) {
          ok = *n->boolean;
        } else {
          ok = passes(n->ref) && std::all_of(n->all_of.begin(), n->all_of.end(), passes) &&
               (n->any_of.empty() || std::any_of(n->any_of.begin(), n->any_of.end(), passes)) &&
               (n->one_of.empty() || std::any_of(n->one_of.begin(), n->one_of.end(), passes)) &&
               (!n->not_schema || fails(n->not_schema)) &&
               (!n->if_schema || passes(n->then_schema) || passes(n->else_schema));
          for (const auto& r : n->required) {
            auto it = n->property_index.find(r);
            const SchemaNode* member = it != n->property_index.end() ? it->second : n->additional;
            ok = ok && passes(member);
          }
        }
        if (ok) p.can_pass[n->id] = changed = true;
      }
    }
  }
  return p;
}

std::string count_text(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::vector<std::string> documents_of(const schema::Ir& ir) {
  std::set<std::string> names;
  for (const auto& root : ir.roots) {
    std::string d = canonical::root_document(ir, root.snake_name);
    if (!d.empty()) names.insert(d);
  }
  return {names.begin(), names.end()};
}

}  // namespace

CanonicalCoverage::CanonicalCoverage(const canonical::CanonicalValidator& validator, const schema::Ir& ir)
    : CanonicalCoverage(validator, documents_of(ir)) {}

CanonicalCoverage::CanonicalCoverage(const canonical::CanonicalValidator& validator,
                                     const std::vector<std::string>& documents)
    : set_(validator.schemas()),
      tracked_(set_.node_count(), 0),
      flags_(std::make_unique<std::atomic<std::uint8_t>[]>(set_.node_count())) {
  std::vector<const SchemaNode*> roots;
  for (const auto& d : documents)
    if (const SchemaNode* r = validator.root(d)) roots.push_back(r);
  track(roots);
}

void CanonicalCoverage::track(const std::vector<const SchemaNode*>& roots) {
  std::vector<std::uint8_t> seen(set_.node_count(), 0);
  std::vector<const SchemaNode*> reachable, stack(roots);
  while (!stack.empty()) {
    const SchemaNode* n = stack.back();
    stack.pop_back();
    if (seen[n->id]) continue;
    seen[n->id] = 1;
    reachable.push_back(n);
    for (const SchemaNode* c : children(*n)) stack.push_back(c);
  }
  Possible p = analyse(reachable, set_.node_count());
  for (const SchemaNode* n : reachable) {
    if (p.can_fail[n->id] && p.can_pass[n->id]) {
      tracked_[n->id] = 1;
      ++tracked_count_;
    }
  }
}

void CanonicalCoverage::evaluated(std::uint32_t node, bool passed) {
  if (!is_tracked(node)) return;
  const std::uint8_t bit = passed ? kPassed : kFailed;
  // Read first: after the first few thousand inputs nearly every call finds its bit set already.
  if (!(flags_[node].load(std::memory_order_relaxed) & bit))
    flags_[node].fetch_or(bit, std::memory_order_relaxed);
}

std::size_t CanonicalCoverage::reached_passed() const { return figures().reached_passed; }
std::size_t CanonicalCoverage::reached_failed() const { return figures().reached_failed; }
std::size_t CanonicalCoverage::reached_both() const { return figures().reached_both; }

run::CanonicalCoverageFigures CanonicalCoverage::figures() const {
  run::CanonicalCoverageFigures f;
  f.tracked = tracked_count_;
  for (std::size_t i = 0; i < tracked_.size(); ++i) {
    if (!tracked_[i]) continue;
    const std::uint8_t bits = flags_[i].load(std::memory_order_relaxed);
    f.reached_passed += (bits & kPassed) != 0;
    f.reached_failed += (bits & kFailed) != 0;
    f.reached_both += bits == (kPassed | kFailed);
  }
  return f;
}

std::vector<std::string> CanonicalCoverage::never_passed() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < tracked_.size(); ++i)
    if (tracked_[i] && !(flags_[i].load(std::memory_order_relaxed) & kPassed))
      out.push_back(set_.node(i).location);
  return out;
}

std::vector<std::string> CanonicalCoverage::never_failed() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < tracked_.size(); ++i)
    if (tracked_[i] && !(flags_[i].load(std::memory_order_relaxed) & kFailed))
      out.push_back(set_.node(i).location);
  return out;
}

run::CanonicalCoverageFile CanonicalCoverage::to_file() const {
  run::CanonicalCoverageFile c;
  c.figures = figures();
  for (std::size_t i = 0; i < tracked_.size(); ++i) {
    if (!tracked_[i]) continue;
    if (const std::uint8_t bits = flags_[i].load(std::memory_order_relaxed)) c.flags[i] = bits;
  }
  c.never_passed = never_passed();
  c.never_failed = never_failed();
  return c;
}

void CanonicalCoverage::restore(const run::CanonicalCoverageFile& saved) {
  for (const auto& [id, bits] : saved.flags)
    if (id < tracked_.size() && tracked_[id]) flags_[id].fetch_or(bits & 3, std::memory_order_relaxed);
}

std::string CanonicalCoverage::describe() const {
  const run::CanonicalCoverageFigures f = figures();
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.1f", f.percent());
  return std::string(percent) + "% of the " + count_text(f.tracked) +
         " schema nodes that can both pass and fail reached in both (passed " + count_text(f.reached_passed) +
         ", failed " + count_text(f.reached_failed) + ")";
}

}  // namespace crosscheck::campaign
