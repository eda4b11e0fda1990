// scenario_generator.cpp: requests, capabilities, state and the response families
// (scenario_generator.hpp; docs/scenario-generator.md lists every family and why it is built so).
#include "scenario_gen/scenario_generator.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

#include "gen/rng.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::scenario_gen {
namespace {

using gen::Rng;
using json::Value;

Value lit(std::string_view text) {
  auto parsed = json::parse(text);
  if (!parsed.ok()) throw std::logic_error("scenario_gen literal is not JSON: " + std::string(text));
  return std::move(parsed.value());
}

Value str(std::string s) { return Value::string(std::move(s)); }
Value num(std::string s) { return Value::number(std::move(s)); }

// What each generated boundary admits (the effect kinds, "stop"/"continue" for flow) and its modify
// target: the rows of host.cpp's table for the boundaries generated here.
struct Boundary {
  std::string type;
  std::vector<std::string> kinds;
  std::string target;
};

const std::vector<Boundary>& table() {
  static const std::vector<Boundary> t = {
      {"tool.before", {"deny", "allow", "ask", "modify", "inject", "stop", "return", "message"}, "input"},
      {"turn.finish.before", {"modify", "stop", "continue", "message"}, "response"},
      {"task.change.before", {"deny", "message"}, ""},
      {"workspace.change.before", {"deny", "modify", "message"}, "workspace"},
  };
  return t;
}

const Boundary& boundary(const std::string& type) {
  for (const auto& b : table())
    if (b.type == type) return b;
  throw std::logic_error("scenario_gen: no boundary " + type);
}

std::string type_of(const std::string& kind) { return kind == "stop" || kind == "continue" ? "flow" : kind; }

bool has(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

bool list_has(const Value* list, std::string_view s) {
  if (!list || !list->is_array()) return false;
  for (const Value& v : list->items())
    if (v.is_string() && v.string_value() == s) return true;
  return false;
}

void erase_member(Value& object, std::string_view key) {
  auto& m = object.members();
  m.erase(std::remove_if(m.begin(), m.end(), [&](const json::Member& x) { return x.key == key; }), m.end());
}

void set_member(Value& object, const std::string& key, Value value) {
  if (Value* existing = object.find(key))
    *existing = std::move(value);
  else
    object.add(key, std::move(value));
}

// A canonical message list of one text message (modify response, inject values).
Value messages(const std::string& id, const std::string& text, const char* role = "user") {
  Value part = lit(R"({"kind":"text","mediaType":"text/plain","selection":"body"})");
  part.members().insert(part.members().begin(), json::Member{"id", str(id + "-p")});
  part.add("text", str(text));
  Value message = Value::object();
  message.add("id", str(id));
  message.add("role", str(role));
  Value parts = Value::array();
  parts.push(std::move(part));
  message.add("parts", std::move(parts));
  Value list = Value::array();
  list.push(std::move(message));
  return list;
}

// One draw: a request and the effects of its response, built by a family.
struct Draw {
  Draw(std::uint64_t seed, std::string row_id) : rng(seed), id(std::move(row_id)) {}
  Rng rng;
  std::string id;
  const Boundary* b = nullptr;
  Value request;
  std::vector<Value> effects;
  bool omit_effects = false;
  std::function<void(Value& response)> finish;  // a family's edit of the whole response envelope
  std::size_t serial = 0;                       // distinct ids and texts inside one row

  Value& params() { return *request.find("params"); }
  Value& event() { return *params().find("event"); }
  Value& caps() { return *params().find("capabilities"); }
  Value& effect_list() { return *caps().find("effects"); }
  std::string next(const char* prefix) { return std::string(prefix) + "-" + std::to_string(++serial); }
};

Value event_for(Draw& d) {
  const std::string& id = d.id;
  Value e = Value::object();
  e.add("id", str(id));
  e.add("source", str("urn:crosscheck:scenario"));
  e.add("type", str(d.b->type));
  e.add("time", str("2026-12-01T00:00:00Z"));
  e.add("harness", lit(R"({"name":"crosscheck","version":"0.1.0"})"));
  if (d.b->type == "tool.before") {
    Value call = Value::object();
    call.add("id", str("call-" + id));
    e.add("call", std::move(call));
    e.add("path", str("native"));
    Value tool = Value::object();
    tool.add("name", str("task"));
    Value input = Value::object();
    input.add("task", num(std::to_string(d.rng.between(1, 9))));
    if (d.rng.chance(0.4)) input.add("note", str("keep"));
    if (d.rng.chance(0.3)) input.add("opts", lit(R"({"a":1,"b":{"c":2}})"));
    tool.add("input", std::move(input));
    tool.add("origin", str("native"));
    e.add("tool", std::move(tool));
  } else if (d.b->type == "turn.finish.before") {
    Value turn = Value::object();
    turn.add("id", str("turn-" + id));
    e.add("turn", std::move(turn));
    e.add("outcome", str("completed"));
    e.add("continuationCount", num("0"));
    e.add("items", Value::array());
  } else if (d.b->type == "task.change.before") {
    Value task = Value::object();
    task.add("id", str("task-" + id));
    static const std::vector<std::string> ops = {"create", "update", "remove"};
    task.add("operation", str(d.rng.pick(ops)));
    task.add("change", lit(R"({"status":"done"})"));
    e.add("task", std::move(task));
  } else {
    e.add("workspace", lit(R"({"kind":"cwd","change":{"cwd":"/work/b"}})"));
  }
  return e;
}

// Advertises `kind` (an effect kind of the boundary) with what it needs to be usable.
void advertise(Draw& d, const std::string& kind) {
  std::string type = type_of(kind);
  if (!list_has(&d.effect_list(), type)) d.effect_list().push(str(type));
  Value& caps = d.caps();
  if (kind == "modify") {
    if (!caps.find("modify")) caps.add("modify", Value::object());
    Value& modify = *caps.find("modify");
    if (!modify.find(d.b->target)) modify.add(d.b->target, lit(R"({"replace":true,"merge":true})"));
    Value& ops = *modify.find(d.b->target);
    if (!(ops.find("replace") && ops.find("replace")->as_bool()) &&
        !(ops.find("merge") && ops.find("merge")->as_bool()))
      set_member(ops, "merge", Value::boolean(true));
  } else if (type == "flow") {
    if (!caps.find("flow")) caps.add("flow", lit(R"({"operations":[]})"));
    Value& flow = *caps.find("flow");
    if (!list_has(flow.find("operations"), kind)) flow.find("operations")->push(str(kind));
    if (kind == "continue") {
      const Value* remaining = flow.find("remainingContinuations");
      if (!remaining || json::write(*remaining) == "0") set_member(flow, "remainingContinuations", num("2"));
      if (!flow.find("continuationCount")) flow.add("continuationCount", num("0"));
    }
  } else if (kind == "inject") {
    if (!caps.find("inject")) caps.add("inject", lit(R"({"context":{"append":true,"deliverAt":["now"]}})"));
  }
}

void unadvertise(Draw& d, const std::string& type) {
  auto& items = d.effect_list().items();
  items.erase(std::remove_if(items.begin(), items.end(),
                             [&](const Value& v) { return v.is_string() && v.string_value() == type; }),
              items.end());
  erase_member(d.caps(), type == "flow" ? "flow" : type);
}

Value capabilities_for(Draw& d) {
  Value caps = Value::object();
  caps.add("effects", Value::array());
  d.params().add("capabilities", std::move(caps));
  for (const std::string& kind : d.b->kinds)
    if (d.rng.chance(0.6)) advertise(d, kind);
  Value& c = d.caps();
  // Random operations, some false: the modify-operation family's edge and the capability shapes
  // the clients must read.
  if (Value* modify = c.find("modify"))
    if (Value* ops = modify->find(d.b->target); ops && d.rng.chance(0.4))
      set_member(*ops, d.rng.chance(0.5) ? "replace" : "merge", Value::boolean(false));
  if (Value* inject = c.find("inject"); inject && d.rng.chance(0.5))
    inject->find("context")->find("deliverAt")->push(str("next_turn"));
  if (Value* flow = c.find("flow"); flow && flow->find("remainingContinuations")) {
    static const std::vector<std::string> remaining = {"1", "2", "3"};
    set_member(*flow, "remainingContinuations", num(d.rng.pick(remaining)));
  }
  return Value();
}

// The incoming state: omitted, or a permission and a candidate (none, null, or one whose value is
// null, false, 0, "" or a value). Only tool.before holds a candidate (its return contract).
void state_for(Draw& d) {
  if (d.rng.chance(0.35)) return;
  static const std::vector<std::string> permissions = {"none", "none", "allow", "deny", "ask"};
  Value state = Value::object();
  state.add("permission", str(d.b->type == "tool.before" ? d.rng.pick(permissions) : "none"));
  if (d.b->type == "tool.before") {
    static const std::vector<std::string> candidates = {"",
                                                        "null",
                                                        R"({"value":null})",
                                                        R"({"value":false})",
                                                        R"({"value":0})",
                                                        R"({"value":""})",
                                                        R"({"value":"cached"})"};
    // The canonical state requires the member: "no candidate" is spelled null.
    const std::string& c = d.rng.pick(candidates);
    state.add("candidate", lit(c.empty() ? "null" : c));
  } else {
    state.add("candidate", Value::null());
  }
  d.params().add("state", std::move(state));
}

bool advertised(Draw& d, const std::string& kind) {
  if (!list_has(&d.effect_list(), type_of(kind))) return false;
  const Value& caps = d.caps();
  if (kind == "modify") {
    const Value* ops = caps.find("modify") ? caps.find("modify")->find(d.b->target) : nullptr;
    auto on = [&](const char* op) { return ops && ops->find(op) && ops->find(op)->as_bool(); };
    return on("replace") || on("merge");
  }
  if (type_of(kind) == "flow") {
    const Value* flow = caps.find("flow");
    if (!flow || !list_has(flow->find("operations"), kind)) return false;
    const Value* remaining = flow->find("remainingContinuations");
    return kind == "stop" || (remaining && json::write(*remaining) != "0");
  }
  if (kind == "inject") {
    const Value* context = caps.find("inject") ? caps.find("inject")->find("context") : nullptr;
    const Value* append = context ? context->find("append") : nullptr;
    const Value* at = context ? context->find("deliverAt") : nullptr;
    return append && append->is_bool() && append->as_bool() && at && at->is_array() && !at->items().empty();
  }
  return true;
}

// The kinds usable as they stand: admitted at the boundary and advertised with what they need.
std::vector<std::string> usable(Draw& d) {
  std::vector<std::string> out;
  for (const std::string& kind : d.b->kinds)
    if (advertised(d, kind)) out.push_back(kind);
  return out;
}

std::string advertised_operation(Draw& d) {
  const Value* ops = d.caps().find("modify")->find(d.b->target);
  std::vector<std::string> on;
  for (const char* op : {"replace", "merge"})
    if (ops->find(op) && ops->find(op)->as_bool()) on.push_back(op);
  return d.rng.pick(on);
}

Value modify_value(Draw& d, const std::string& operation) {
  if (d.b->target == "input") {
    Value v = Value::object();
    if (operation == "replace" || d.rng.chance(0.5)) v.add("task", num(std::to_string(d.rng.between(1, 9))));
    if (d.rng.chance(0.5)) v.add("extra", num("1"));
    if (operation == "merge" && d.rng.chance(0.3)) v.add("note", Value::null());
    if (d.rng.chance(0.3)) v.add("opts", lit(R"({"z":true})"));
    if (v.members().empty()) v.add("extra", str("x"));
    return v;
  }
  if (d.b->target == "response") return messages(d.next("resp"), "rewritten answer", "assistant");
  return d.rng.chance(0.5) ? lit(R"({"cwd":"/work/c"})") : lit(R"({"workspaceRoots":["/work/a"]})");
}

Value return_value(Draw& d) {
  static const std::vector<std::string> values = {"null",       "false",        "0",     "\"\"",
                                                  "\"cached\"", R"({"out":1})", "[1,2]", "9007199254740993"};
  return lit(d.rng.pick(values));
}

Value effect(Draw& d, const std::string& kind) {
  Value e = Value::object();
  e.add("type", str(type_of(kind)));
  if (kind == "deny") e.add("reason", str("policy says no"));
  if (kind == "ask" && d.rng.chance(0.3)) e.add("reason", str("confirm"));
  if (kind == "message") e.add("text", str(d.next("note")));
  if (kind == "return") e.add("value", return_value(d));
  if (kind == "modify") {
    std::string op = advertised_operation(d);
    e.add("target", str(d.b->target));
    e.add("operation", str(op));
    e.add("value", modify_value(d, op));
  }
  if (kind == "stop" || kind == "continue") {
    e.add("operation", str(kind));
    if (kind == "continue" && d.rng.chance(0.8)) e.add("instruction", str(d.next("check")));
    if (kind == "stop") e.add("reason", str(d.rng.chance(0.5) ? "enough" : "done"));
  }
  if (kind == "inject") {
    e.add("target", str("context"));
    e.add("operation", str("append"));
    const Value& at = *d.caps().find("inject")->find("context")->find("deliverAt");
    e.add("deliverAt", d.rng.pick(at.items()));
    e.add("value", messages(d.next("inj"), "context"));
  }
  return e;
}

// A few valid effects around an edge (possibly none).
void some_valid(Draw& d, std::size_t max) {
  std::vector<std::string> kinds = usable(d);
  if (kinds.empty()) return;
  std::size_t n = d.rng.below(max + 1);
  for (std::size_t i = 0; i < n; ++i) d.effects.push_back(effect(d, d.rng.pick(kinds)));
}

void insert_at_random(Draw& d, Value e) {
  auto at = d.effects.begin() + static_cast<std::ptrdiff_t>(d.rng.below(d.effects.size() + 1));
  d.effects.insert(at, std::move(e));
}

// ---- The families. Each builds on a random canonical request at one of its boundaries. ----

using Build = std::function<void(Draw&)>;

struct FamilyDef {
  Family family;
  std::vector<std::string> boundaries;
  Build build;
};

const std::vector<std::string> kAll = {"tool.before", "turn.finish.before", "task.change.before",
                                       "workspace.change.before"};
const std::vector<std::string> kTool = {"tool.before"};
const std::vector<std::string> kFinish = {"turn.finish.before"};

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

const std::vector<FamilyDef>& defs() {
  static const std::vector<FamilyDef> list = {
      {{"valid-mix", kAccepted, "advertised effects valid for the request, in random order and number"},
       kAll,
       valid_mix},
      {{"neutral", kAccepted, "effects: [] or no effects member: neutral, permission none resolves to allow"},
       kAll,
       neutral},
      {{"precedence", kAccepted,
        "deny, ask and allow, duplicated and in every order, over each incoming permission"},
       kTool,
       precedence},
      {{"merge-values", kAccepted, "shallow merges with null members and nested objects"},
       kTool,
       merge_values},
      {{"staging", kAccepted, "replace and merge staged in order around one or two returns"}, kTool, staging},
      {{"candidate-state", kAccepted,
        "an incoming candidate null or whose value is null, false, 0, \"\" or a value, under each "
        "permission"},
       kTool,
       candidate_state},
      {{"flow-order", kAccepted, "stop and continue, duplicated and in either order"},
       {"tool.before", "turn.finish.before"},
       flow_order},
      {{"messages-order", kAccepted, "several messages, repeated, empty and non-ASCII texts, in order"},
       kAll,
       messages_order},
      {{"inject-order", kAccepted, "several advertised injections, in order"}, kTool, inject_order},
      {{"big-integers", kAccepted,
        "integers beyond 2^53 and 2^64 in inputs and values; allowances beyond 2^53 or spelled 2.0, 1E1"},
       {"tool.before", "turn.finish.before"},
       big_integers},
      {{"envelope-extension", kAccepted, "an unknown member in the result envelope"},
       kAll,
       envelope_extension},
      {{"host-input", host::kHostInput,
        "the effective tool input breaks the synthetic host's tool contract (task not a positive integer)"},
       kTool,
       host_input},
      {{"unadvertised-effect", host::kEffectNotAdvertised, "an effect the boundary takes, not advertised"},
       kAll,
       unadvertised_effect},
      {{"unsupported-target", host::kModifyTarget, "a modify of a target the boundary does not have"},
       {"tool.before", "turn.finish.before", "workspace.change.before"},
       unsupported_target},
      {{"unsupported-operation", host::kModifyOperation, "a modify whose operation is false or not listed"},
       {"tool.before", "turn.finish.before", "workspace.change.before"},
       unsupported_operation},
      // The canonical intercept-response already ties input, response and workspace to their value
      // contracts, so at these boundaries the layer-2 check is the one that refuses (docs).
      {{"wrong-value-contract", host::kResponseCanonical,
        "a modify value that breaks its target's value contract (caught canonically at these boundaries)"},
       {"tool.before", "turn.finish.before", "workspace.change.before"},
       wrong_value_contract},
      {{"return-non-return-boundary", host::kReturnBoundary,
        "a return at a boundary that is not a return boundary"},
       {"turn.finish.before", "task.change.before", "workspace.change.before"},
       return_non_return_boundary},
      {{"effect-boundary", host::kEffectBoundary, "an effect (or flow operation) the boundary does not take"},
       kAll,
       effect_boundary},
      {{"unknown-effect-after-valid", host::kUnknownEffectType, "an unknown effect type after valid ones"},
       kAll,
       unknown_effect_after_valid},
      {{"wrong-id", host::kIdCorrelation, "a response id that is not the request's"}, kAll, wrong_id},
      {{"wrong-version", host::kProtocolVersion, "a result protocolVersion that is not the request's"},
       kAll,
       wrong_version},
      {{"null-effects", host::kEffectsList, "effects null, an object, a string, a number or false"},
       kAll,
       null_effects},
      {{"bad-envelope", host::kEnvelope, "jsonrpc not \"2.0\", a result not an object, an error member"},
       kAll,
       bad_envelope},
      {{"unknown-member-effect", host::kResponseCanonical, "an unknown member inside a valid effect"},
       kAll,
       unknown_member_effect},
      {{"flow-operation", host::kFlowOperation, "a flow operation not in capabilities.flow.operations"},
       kFinish,
       flow_operation},
      {{"continuation-exhausted", host::kContinuationAllowance,
        "continue at an allowance of zero (spelled 0, 0.0, 0E0, -0), with and without stop"},
       kFinish,
       continuation_exhausted},
      {{"inject-without-delivery", host::kInjectDelivery,
        "inject without the advertised append and deliverAt"},
       kTool,
       inject_without_delivery},
  };
  return list;
}

const FamilyDef& def_of(const Family& f) {
  for (const auto& d : defs())
    if (d.family.name == f.name) return d;
  throw std::logic_error("scenario_gen: no family " + f.name);
}

constexpr std::size_t kAttempts = 12;

}  // namespace

const std::vector<Family>& families() {
  static const std::vector<Family> list = [] {
    std::vector<Family> out;
    for (const auto& d : defs()) out.push_back(d.family);
    return out;
  }();
  return list;
}

const Family* find_family(std::string_view name) {
  for (const Family& f : families())
    if (f.name == name) return &f;
  return nullptr;
}

const std::vector<std::string>& boundaries() { return kAll; }

GeneratedRow ScenarioGenerator::generate(const Family& family, std::uint64_t seed, const std::string& id,
                                         host::RuleCoverage* coverage) const {
  const FamilyDef& def = def_of(family);
  GeneratedRow row;
  for (std::size_t attempt = 0; attempt < kAttempts; ++attempt) {
    Draw d(gen::mix_seed(seed, attempt), id);
    d.b = &boundary(d.rng.pick(def.boundaries));
    d.request = Value::object();
    d.request.add("jsonrpc", str("2.0"));
    d.request.add("id", str(id));
    d.request.add("method", str("hooks/intercept"));
    Value params = Value::object();
    params.add("protocolVersion", str("draft"));
    d.request.add("params", std::move(params));
    d.params().add("event", event_for(d));
    capabilities_for(d);
    state_for(d);
    def.build(d);

    Value response = Value::object();
    response.add("jsonrpc", str("2.0"));
    response.add("id", str(id));
    Value result = Value::object();
    result.add("protocolVersion", str("draft"));
    if (!d.omit_effects) result.add("effects", Value::array(std::move(d.effects)));
    response.add("result", std::move(result));
    if (d.finish) d.finish(response);

    row.id = id;
    row.family = &family;
    row.boundary = d.b->type;
    row.request = std::move(d.request);
    row.response = std::move(response);
    row.applied = host::apply(validator_, row.request, row.response);
    const std::string said = row.applied.rule.empty() ? kAccepted : row.applied.rule;
    // A request the validator refuses is the generator's fault: draw again.
    row.claim_held = said == family.claim;
    if (row.claim_held) break;
  }
  if (coverage) host::apply(validator_, row.request, row.response, coverage);
  const std::string said = row.applied.rule.empty() ? kAccepted : row.applied.rule;
  row.tags = {"generated", "family:" + family.name, "boundary:" + row.boundary, "rule:" + said};
  return row;
}

std::vector<GeneratedRow> ScenarioGenerator::generate_many(std::uint64_t seed, std::size_t count,
                                                           const std::vector<const Family*>& chosen,
                                                           host::RuleCoverage* coverage) const {
  std::vector<GeneratedRow> rows;
  if (chosen.empty()) return rows;
  rows.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const Family& f = *chosen[i % chosen.size()];
    rows.push_back(generate(f, gen::mix_seed(seed, 1000 + i), f.name + "-" + std::to_string(i), coverage));
  }
  return rows;
}

Value GeneratedRow::row() const {
  Value r = Value::object();
  r.add("id", str(id));
  std::string comment = family->text + "; the reference host: ";
  if (applied.accepted && applied.host_accepted)
    comment += "accepted";
  else
    comment += applied.rule + " (" + applied.message + ")";
  r.add("comment", str(comment));
  Value tag_list = Value::array();
  for (const auto& t : tags) tag_list.push(str(t));
  r.add("tags", std::move(tag_list));
  r.add("request", request);
  r.add("response", response);
  if (applied.accepted && applied.host_accepted) {
    r.add("expected", applied.result);
  } else {
    r.add("expectError", Value::boolean(true));
    if (applied.accepted) r.add("hostExpected", applied.result);
  }
  return r;
}

std::string scenario_file_text(const std::vector<GeneratedRow>& rows) {
  std::string out = "{\"version\":1,\"scenarios\":[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += i ? ",\n" : "\n";
    out += json::write(rows[i].row());
  }
  out += "\n]}\n";
  return out;
}

}  // namespace crosscheck::scenario_gen
