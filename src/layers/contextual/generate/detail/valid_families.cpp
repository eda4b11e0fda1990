// valid_families.cpp: the families whose responses are valid for their request by construction,
// in the orders and spellings the composition rules make interesting (scenario_families.def).
#include <cstddef>
#include <string>
#include <vector>

#include "layers/contextual/generate/detail/family_table.hpp"

namespace crosscheck::scenario_gen::detail {

void valid_mix(Draw& d) {
  for (const std::string& kind : d.b->kinds)
    if (d.rng.chance(0.3)) advertise(d, kind);
  std::vector<std::string> kinds = usable(d);
  if (kinds.empty()) advertise(d, "message"), kinds = usable(d);
  std::size_t n = 1 + d.rng.below(4);
  for (std::size_t i = 0; i < n; ++i) d.effects.push_back(effect(d, d.rng.pick(kinds)));
}

void neutral(Draw& d) { d.omit_effects = d.rng.chance(0.5); }

void precedence(Draw& d) {
  for (const char* k : {"deny", "allow", "ask"}) advertise(d, k);
  std::vector<std::string> kinds = {"deny", "allow", "ask"};
  std::size_t n = 2 + d.rng.below(3);
  for (std::size_t i = 0; i < n; ++i) d.effects.push_back(effect(d, d.rng.pick(kinds)));
  if (d.rng.chance(0.4)) advertise(d, "return"), insert_at_random(d, effect(d, "return"));
  if (d.rng.chance(0.3)) advertise(d, "message"), insert_at_random(d, effect(d, "message"));
}

void merge_values(Draw& d) {
  advertise(d, "modify");
  set_member(*d.caps().find("modify")->find("input"), "merge", Value::boolean(true));
  Value& input = *d.event().find("tool")->find("input");
  set_member(input, "opts", lit(R"({"a":1,"b":{"c":2}})"));
  static const std::vector<std::string> values = {
      R"({"note":null})",       R"({"opts":{"b":{"d":3}}})",           R"({"opts":null})",
      R"({"opts":{}})",         R"({"fresh":{"x":[1,{"y":null}]}})",   R"({"task":2,"note":null})",
      R"({"opts":{"a":null}})", R"({"note":{"nested":{"deep":true}}})"};
  std::size_t n = 1 + d.rng.below(3);
  for (std::size_t i = 0; i < n; ++i) {
    Value e = lit(R"({"type":"modify","target":"input","operation":"merge"})");
    e.add("value", lit(d.rng.pick(values)));
    d.effects.push_back(std::move(e));
  }
}

void staging(Draw& d) {
  advertise(d, "modify");
  advertise(d, "return");
  Value& ops = *d.caps().find("modify")->find("input");
  set_member(ops, "merge", Value::boolean(true));
  set_member(ops, "replace", Value::boolean(true));
  static const std::vector<std::string> replaces = {R"({"task":3})", R"({"task":4,"only":true})",
                                                    R"({"task":1})"};
  std::size_t n = 1 + d.rng.below(3);
  for (std::size_t i = 0; i < n; ++i) {
    bool replace = d.rng.chance(0.5);
    Value e = lit(R"({"type":"modify","target":"input"})");
    e.add("operation", str(replace ? "replace" : "merge"));
    e.add("value", replace ? lit(d.rng.pick(replaces)) : modify_value(d, "merge"));
    d.effects.push_back(std::move(e));
  }
  std::size_t returns = 1 + d.rng.below(2);
  for (std::size_t i = 0; i < returns; ++i) insert_at_random(d, effect(d, "return"));
}

void candidate_state(Draw& d) {
  static const std::vector<std::string> candidates = {
      "null",           R"({"value":null})", R"({"value":false})",
      R"({"value":0})", R"({"value":""})",   R"({"value":{"cached":[1]}})"};
  static const std::vector<std::string> permissions = {"none", "allow", "deny", "ask"};
  Value state = Value::object();
  state.add("permission", str(d.rng.pick(permissions)));
  state.add("candidate", lit(d.rng.pick(candidates)));
  erase_member(d.params(), "state");
  d.params().add("state", std::move(state));
  static const std::vector<std::string> extra = {"", "allow", "deny", "ask", "modify", "return", "message"};
  std::size_t n = d.rng.below(3);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& kind = d.rng.pick(extra);
    if (kind.empty()) continue;
    advertise(d, kind);
    d.effects.push_back(effect(d, kind));
  }
}

void flow_order(Draw& d) {
  std::vector<std::string> kinds = {"stop"};
  if (d.b->type == "turn.finish.before") kinds.push_back("continue");
  for (const std::string& k : kinds) advertise(d, k);
  std::size_t n = 1 + d.rng.below(3);
  for (std::size_t i = 0; i < n; ++i) d.effects.push_back(effect(d, d.rng.pick(kinds)));
  if (d.rng.chance(0.4)) advertise(d, "message"), insert_at_random(d, effect(d, "message"));
}

void messages_order(Draw& d) {
  advertise(d, "message");
  static const std::vector<std::string> texts = {
      "first", "second", "", "caf\xc3\xa9", "\xf0\x9f\x98\x80 astral", "line\nbreak", "same", "same"};
  std::size_t n = 2 + d.rng.below(3);
  for (std::size_t i = 0; i < n; ++i) {
    Value e = lit(R"({"type":"message"})");
    e.add("text", str(d.rng.pick(texts)));
    d.effects.push_back(std::move(e));
  }
}

void inject_order(Draw& d) {
  advertise(d, "inject");
  std::size_t n = 2 + d.rng.below(2);
  for (std::size_t i = 0; i < n; ++i) d.effects.push_back(effect(d, "inject"));
  if (d.rng.chance(0.3)) advertise(d, "message"), insert_at_random(d, effect(d, "message"));
}

void big_integers(Draw& d) {
  if (d.b->type == "tool.before") {
    static const std::vector<std::string> tasks = {"9007199254740993", "18446744073709551617", "4E0", "1.0"};
    Value& input = *d.event().find("tool")->find("input");
    set_member(input, "task", num(d.rng.pick(tasks)));
    set_member(input, "big", num("123456789012345678901234567890"));
    advertise(d, "return");
    advertise(d, "modify");
    set_member(*d.caps().find("modify")->find("input"), "merge", Value::boolean(true));
    if (d.rng.chance(0.5))
      d.effects.push_back(lit(R"({"type":"modify","target":"input","operation":"merge",)"
                              R"("value":{"big":9007199254740993,"small":-0.0}})"));
    if (d.rng.chance(0.5)) d.effects.push_back(lit(R"({"type":"return","value":18446744073709551616})"));
    return;
  }
  // Counters: an allowance beyond 2^53 and 2^64, and integers spelled as 2.0 or 1E1.
  static const std::vector<std::string> remaining = {
      "9007199254740993", "18446744073709551616", "2.0", "1E1", "1e0", "10E-1"};
  advertise(d, "continue");
  set_member(*d.caps().find("flow"), "remainingContinuations", num(d.rng.pick(remaining)));
  d.effects.push_back(effect(d, "continue"));
  if (d.rng.chance(0.3)) advertise(d, "stop"), insert_at_random(d, effect(d, "stop"));
}

void envelope_extension(Draw& d) {
  some_valid(d, 2);
  d.finish = [&d](Value& response) {
    static const std::vector<std::string> names = {"org.example.note", "extensions", "_meta", "x"};
    response.find("result")->add(d.rng.pick(names), lit(R"({"kept":true})"));
  };
}

namespace {

// The request's state, made when state_for left it out (permission and candidate are required).
Value& state_of(Draw& d) {
  if (!d.params().find("state")) d.params().add("state", lit(R"({"permission":"none","candidate":null})"));
  return *d.params().find("state");
}

}  // namespace

void prior_flow(Draw& d) {
  static const std::vector<std::string> flows = {"stop", "continue", "none"};
  Value& state = state_of(d);
  set_member(state, "flow", str(d.rng.pick(flows)));
  if (d.rng.chance(0.6)) {
    Value instructions = Value::array();
    std::size_t n = 1 + d.rng.below(2);
    for (std::size_t i = 0; i < n; ++i) instructions.push(str(d.next("earlier")));
    set_member(state, "instructions", std::move(instructions));
  }
  // This response's flow: stop, continue, both (either order) or neither; tool.before takes stop only.
  const bool finish = d.b->type == "turn.finish.before";
  std::vector<std::string> ops;
  if (d.rng.chance(0.5)) ops.push_back("stop");
  if (finish && d.rng.chance(0.5))
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(d.rng.below(ops.size() + 1)), "continue");
  for (const std::string& op : ops) advertise(d, op);
  // Flow advertised with no flow effect: the allowance is still counted, so the result reports it.
  if (ops.empty() && d.rng.chance(0.5)) advertise(d, finish && d.rng.chance(0.5) ? "continue" : "stop");
  for (const std::string& op : ops) d.effects.push_back(effect(d, op));
  // A full continuation budget (maxContinuations too) on some rows: the Rust client wants all three.
  if (Value* flow = d.caps().find("flow");
      flow && flow->find("remainingContinuations") && d.rng.chance(0.5)) {
    long long remaining = std::stoll(flow->find("remainingContinuations")->number_text());
    long long count = std::stoll(flow->find("continuationCount")->number_text());
    set_member(*flow, "maxContinuations", num(std::to_string(remaining + count)));
  }
  if (d.rng.chance(0.3)) advertise(d, "message"), insert_at_random(d, effect(d, "message"));
}

void prior_injections(Draw& d) {
  static const std::vector<std::string> deliveries = {"now", "next_turn"};
  Value injections = Value::array();
  std::size_t n = 1 + d.rng.below(3);
  for (std::size_t i = 0; i < n; ++i) {
    Value e = lit(R"({"type":"inject","target":"context","operation":"append"})");
    e.add("deliverAt", str(d.rng.pick(deliveries)));
    e.add("value", messages(d.next("earlier-inj"), "earlier"));
    injections.push(std::move(e));
  }
  set_member(state_of(d), "injections", std::move(injections));
  if (has(d.b->kinds, "inject")) {
    advertise(d, "inject");
    std::size_t more = d.rng.below(3);
    for (std::size_t i = 0; i < more; ++i) d.effects.push_back(effect(d, "inject"));
  }
  some_valid(d, 1);
}

}  // namespace crosscheck::scenario_gen::detail
