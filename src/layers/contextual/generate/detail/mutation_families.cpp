// mutation_families.cpp: the families that break one rule of the reference host at its edge
// (scenario_families.def names the rule each claims).
#include <string>
#include <vector>

#include "json/write.hpp"
#include "layers/contextual/generate/detail/family_table.hpp"

namespace crosscheck::scenario_gen::detail {

void host_input(Draw& d) {
  static const std::vector<std::string> bad = {R"({"task":0})",   R"({"task":true})", R"({"task":"1"})",
                                               R"({})",           R"({"task":-1})",   R"({"task":1.5})",
                                               R"({"task":null})"};
  if (d.rng.chance(0.25)) {
    // The request's own input breaks the tool contract; the neutral response leaves it so.
    *d.event().find("tool")->find("input") = lit(d.rng.pick(bad));
    some_valid(d, 1);
    std::erase_if(d.effects, [](const Value& e) { return e.find("type")->string_value() == "modify"; });
    return;
  }
  advertise(d, "modify");
  Value& ops = *d.caps().find("modify")->find("input");
  set_member(ops, "replace", Value::boolean(true));
  set_member(ops, "merge", Value::boolean(true));
  Value e = lit(R"({"type":"modify","target":"input"})");
  e.add("operation", str(d.rng.chance(0.5) ? "replace" : "merge"));
  Value v = lit(d.rng.pick(bad));
  if (e.find("operation")->string_value() == "merge" && v.members().empty()) v = lit(R"({"task":0})");
  e.add("value", std::move(v));
  d.effects.push_back(std::move(e));
  if (d.rng.chance(0.4)) advertise(d, "message"), insert_at_random(d, effect(d, "message"));
}

void unadvertised_effect(Draw& d) {
  const std::string& kind = d.rng.pick(d.b->kinds);
  advertise(d, kind);
  Value e = effect(d, kind);
  unadvertise(d, type_of(kind));
  some_valid(d, 2);
  insert_at_random(d, std::move(e));
}

void unsupported_target(Draw& d) {
  // A target the boundary does not have. (Its own target left out of capabilities.modify is not
  // canonical: with modify advertised, capabilities.modify is required, nonempty and names only it.)
  advertise(d, "modify");
  Value e = lit(R"({"type":"modify","operation":"replace"})");
  if (d.b->target == "input") {
    e.add("target", str(d.rng.chance(0.5) ? "response" : "prompt"));
    e.add("value", messages(d.next("m"), "x"));
  } else {
    e.add("target", str("input"));
    e.add("value", lit(R"({"task":1})"));
  }
  some_valid(d, 1);
  insert_at_random(d, std::move(e));
}

void unsupported_operation(Draw& d) {
  advertise(d, "modify");
  Value& ops = *d.caps().find("modify")->find(d.b->target);
  std::string op = d.rng.chance(0.5) ? "replace" : "merge";
  std::string other = op == "replace" ? "merge" : "replace";
  set_member(ops, other, Value::boolean(true));
  if (d.rng.chance(0.5))
    set_member(ops, op, Value::boolean(false));
  else
    erase_member(ops, op);
  Value e = lit(R"({"type":"modify"})");
  e.add("target", str(d.b->target));
  e.add("operation", str(op));
  e.add("value", modify_value(d, op));
  some_valid(d, 1);
  insert_at_random(d, std::move(e));
}

void wrong_value_contract(Draw& d) {
  advertise(d, "modify");
  std::vector<std::string> values;
  if (d.b->target == "input") values = {"[]", "\"x\"", "1", "null", "[{\"task\":1}]"};
  if (d.b->target == "response")
    values = {R"({"text":"x"})", R"([{"text":"x"}])", R"("x")", R"([{"role":"user"}])", "null"};
  if (d.b->target == "workspace")
    values = {"{}", R"({"other":1})", R"({"cwd":""})", R"({"prompt":"x"})", "[]"};
  Value e = lit(R"({"type":"modify"})");
  e.add("target", str(d.b->target));
  e.add("operation", str(advertised_operation(d)));
  e.add("value", lit(d.rng.pick(values)));
  some_valid(d, 1);
  insert_at_random(d, std::move(e));
}

void return_non_return_boundary(Draw& d) {
  some_valid(d, 2);
  insert_at_random(d, effect(d, "return"));
}

void effect_boundary(Draw& d) {
  std::vector<std::string> foreign;
  for (const char* k : {"deny", "allow", "ask", "inject", "stop", "continue", "message"})
    if (!has(d.b->kinds, k)) foreign.push_back(k);
  const std::string& kind = d.rng.pick(foreign);
  Value e = lit("{}");
  e.add("type", str(type_of(kind)));
  if (kind == "deny") e.add("reason", str("no"));
  if (kind == "stop" || kind == "continue") e.add("operation", str(kind));
  if (kind == "inject")
    e = lit(R"({"type":"inject","target":"context","operation":"append","deliverAt":"now"})"),
    e.add("value", messages(d.next("inj"), "context"));
  some_valid(d, 2);
  insert_at_random(d, std::move(e));
}

void unknown_effect_after_valid(Draw& d) {
  advertise(d, "message");
  some_valid(d, 2);
  d.effects.push_back(effect(d, "message"));
  static const std::vector<std::string> types = {
      R"({"type":"org.example.unknown"})", R"({"type":"Deny"})", R"({"type":""})",
      R"({"type":"halt","reason":"x"})",   R"({"kind":"deny"})", R"({"type":1})"};
  d.effects.push_back(lit(d.rng.pick(types)));
  if (d.rng.chance(0.3)) d.effects.push_back(effect(d, "message"));
}

void wrong_id(Draw& d) {
  some_valid(d, 2);
  d.finish = [&d](Value& response) {
    static const std::vector<std::string> ids = {"\"other\"", "null", "1", "\"\"", "[\"x\"]"};
    std::size_t pick = d.rng.below(ids.size() + 2);
    if (pick == ids.size()) {
      erase_member(response, "id");
    } else if (pick == ids.size() + 1) {
      *response.find("id") = str(d.id + " ");
    } else {
      *response.find("id") = lit(ids[pick]);
    }
  };
}

void wrong_version(Draw& d) {
  some_valid(d, 2);
  d.finish = [&d](Value& response) {
    static const std::vector<std::string> versions = {"\"draft-2\"", "\"\"", "1", "\"DRAFT\"", "null", ""};
    const std::string& v = d.rng.pick(versions);
    if (v.empty())
      erase_member(*response.find("result"), "protocolVersion");
    else
      *response.find("result")->find("protocolVersion") = lit(v);
  };
}

void null_effects(Draw& d) {
  d.finish = [&d](Value& response) {
    static const std::vector<std::string> values = {"null", "{}", "\"deny\"", "0", R"({"type":"deny"})",
                                                    "false"};
    set_member(*response.find("result"), "effects", lit(d.rng.pick(values)));
  };
}

void bad_envelope(Draw& d) {
  some_valid(d, 1);
  d.finish = [&d](Value& response) {
    switch (d.rng.below(6)) {
      case 0:
        *response.find("jsonrpc") = str("1.0");
        break;
      case 1:
        erase_member(response, "jsonrpc");
        break;
      case 2:
        *response.find("jsonrpc") = num("2.0");
        break;
      case 3:
        *response.find("result") = Value::null();
        break;
      case 4:
        *response.find("result") = Value::array();
        break;
      default:
        response.add("error", lit(R"({"code":-32603,"message":"x"})"));
    }
  };
}

void unknown_member_effect(Draw& d) {
  advertise(d, d.rng.pick(d.b->kinds));
  some_valid(d, 2);
  std::vector<std::string> kinds = usable(d);
  Value e = effect(d, d.rng.pick(kinds));
  static const std::vector<std::string> names = {"org.example.x", "extra", "Type", "_meta"};
  // Two draws, sequenced: the order of a call's arguments is unspecified (gcc and clang differ).
  const bool flag = d.rng.chance(0.5);
  const std::string name = d.rng.pick(names);
  e.add(name, flag ? Value::boolean(true) : lit(R"({"nested":1})"));
  insert_at_random(d, std::move(e));
}

void flow_operation(Draw& d) {
  // Only turn.finish.before takes both operations (tool.before advertises stop alone, and a continue
  // there is effect-boundary); operations must be nonempty, so one is advertised and the other used.
  if (d.rng.chance(0.5)) {
    advertise(d, "stop");
    *d.caps().find("flow")->find("operations") = lit(R"(["stop"])");
    erase_member(*d.caps().find("flow"), "remainingContinuations");
    some_valid(d, 1);
    insert_at_random(d, lit(R"({"type":"flow","operation":"continue","instruction":"more"})"));
    return;
  }
  advertise(d, "continue");
  *d.caps().find("flow")->find("operations") = lit(R"(["continue"])");
  some_valid(d, 1);
  insert_at_random(d, lit(R"({"type":"flow","operation":"stop","reason":"enough"})"));
}

void continuation_exhausted(Draw& d) {
  advertise(d, "stop");
  advertise(d, "continue");
  static const std::vector<std::string> zeros = {"0", "0", "0.0", "0E0", "-0"};
  set_member(*d.caps().find("flow"), "remainingContinuations", num(d.rng.pick(zeros)));
  d.effects.push_back(lit(R"({"type":"flow","operation":"continue","instruction":"again"})"));
  if (d.rng.chance(0.5)) insert_at_random(d, lit(R"({"type":"flow","operation":"stop","reason":"enough"})"));
  if (d.rng.chance(0.3)) advertise(d, "message"), insert_at_random(d, effect(d, "message"));
}

void inject_without_delivery(Draw& d) {
  advertise(d, "inject");
  Value e = lit(R"({"type":"inject","target":"context","operation":"append"})");
  // (No inject capability, or an empty deliverAt, is not canonical when inject is advertised.)
  if (d.rng.chance(0.5)) {
    // advertised now only, next_turn asked for
    *d.caps().find("inject") = lit(R"({"context":{"append":true,"deliverAt":["now"]}})");
    e.add("deliverAt", str("next_turn"));
  } else {
    *d.caps().find("inject") = lit(R"({"context":{"append":false,"deliverAt":["now","next_turn"]}})");
    e.add("deliverAt", str("now"));
  }
  e.add("value", messages(d.next("inj"), "context"));
  some_valid(d, 2);
  insert_at_random(d, std::move(e));
}

}  // namespace crosscheck::scenario_gen::detail
