// verdict.cpp: the run's verdict from its buckets.
#include "verdict/verdict.hpp"

namespace crosscheck::verdict {
namespace {

json::Value count(std::size_t n) { return json::Value::number(std::to_string(n)); }

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

bool bucket_fails(bool known, bool implementation_defined, bool strict) {
  return !known && (strict || !implementation_defined);
}

void Verdict::add_bucket(bool is_known, bool implementation_defined) {
  if (is_known)
    ++known;
  else
    ++(implementation_defined ? new_implementation_defined : new_contract);
}

bool Verdict::fails() const {
  return (new_contract > 0 && bucket_fails(false, false, strict)) ||
         (new_implementation_defined > 0 && bucket_fails(false, true, strict)) || failing_stale > 0;
}

int Verdict::exit_code() const { return fails() ? kExitDivergence : kExitClean; }

std::string Verdict::describe() const {
  return std::string(fails() ? "FAILED" : "passed") + ": " +
         plural(new_contract, "new contract bucket", "new contract buckets") + ", " +
         std::to_string(new_implementation_defined) + " new implementation-defined" +
         (strict ? " (--strict: they fail)" : "") + ", " + std::to_string(known) + " known, " +
         plural(stale, "stale baseline entry", "stale baseline entries") +
         (failing_stale ? " (" + std::to_string(failing_stale) + " failing: --fail-stale)" : "") +
         (baseline ? " (baseline " + *baseline + ")" : " (no baseline: every bucket is new)");
}

Verdict combine(const Verdict& a, const Verdict& b) {
  Verdict v = a;
  v.new_contract += b.new_contract;
  v.new_implementation_defined += b.new_implementation_defined;
  v.known += b.known;
  v.stale += b.stale;
  v.failing_stale += b.failing_stale;
  v.strict = a.strict || b.strict;
  if (!v.baseline) v.baseline = b.baseline;
  return v;
}

json::Value to_json(const Verdict& v) {
  json::Value o = json::Value::object();
  o.add("fails", json::Value::boolean(v.fails()));
  o.add("exitCode", count(static_cast<std::size_t>(v.exit_code())));
  o.add("strict", json::Value::boolean(v.strict));
  o.add("baseline", v.baseline ? json::Value::string(*v.baseline) : json::Value::null());
  o.add("newContract", count(v.new_contract));
  o.add("newImplementationDefined", count(v.new_implementation_defined));
  o.add("known", count(v.known));
  o.add("stale", count(v.stale));
  o.add("failingStale", count(v.failing_stale));
  return o;
}

Result<Verdict, std::string> from_json(const json::Value& o) {
  if (!o.is_object()) return std::string(": expected an object");
  Verdict v;
  auto number = [&](const char* key, std::size_t& out) -> bool {
    const json::Value* n = o.find(key);
    if (!n || !n->is_number()) return false;
    const std::string& t = n->number_text();
    if (t.empty() || t.size() > 15 || t.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoull(t);
    return true;
  };
  for (auto [key, field] :
       {std::pair{"newContract", &v.new_contract},
        std::pair{"newImplementationDefined", &v.new_implementation_defined}, std::pair{"known", &v.known},
        std::pair{"stale", &v.stale}, std::pair{"failingStale", &v.failing_stale}}) {
    if (!number(key, *field)) return "/" + std::string(key) + ": expected a non-negative integer";
  }
  const json::Value* strict = o.find("strict");
  if (!strict || !strict->is_bool()) return std::string("/strict: expected true or false");
  v.strict = strict->as_bool();
  if (const json::Value* b = o.find("baseline"); b && b->is_string()) v.baseline = b->string_value();
  // "fails" and "exitCode" are for readers without crosscheck; they must agree with the counts.
  const json::Value* fails = o.find("fails");
  if (!fails || !fails->is_bool() || fails->as_bool() != v.fails())
    return std::string("/fails: expected ") + (v.fails() ? "true" : "false") + " (from the counts)";
  return v;
}

}  // namespace crosscheck::verdict
