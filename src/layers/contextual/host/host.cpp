// host.cpp: the reference host's admission and composition (docs/host.md states every rule).
#include "layers/contextual/host/host.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "json/equal.hpp"
#include "layers/contextual/host/rule_coverage.hpp"

namespace crosscheck::host {

const std::vector<Boundary>& boundaries() {
  using C = Contract;
  static const std::vector<Boundary> table = {
      {"session.start", {"inject", "message"}, "", C::kNone, C::kNone},
      {"config.change.before", {"deny", "message"}, "", C::kNone, C::kNone},
      {"turn.start", {"deny", "modify", "inject", "stop", "message"}, "prompt", C::kMessages, C::kNone},
      {"turn.finish.before", {"modify", "stop", "continue", "message"}, "response", C::kMessages, C::kNone},
      {"model.request.before",
       {"deny", "modify", "inject", "return", "stop", "message"},
       "request",
       C::kMessages,
       C::kMessages},
      {"model.response.after", {"modify", "stop", "message"}, "response", C::kMessages, C::kNone},
      {"model.switch.before", {"deny", "stop", "message"}, "", C::kNone, C::kNone},
      {"tool.before",
       {"deny", "allow", "ask", "modify", "inject", "stop", "return", "message"},
       "input",
       C::kObject,
       C::kAny},
      {"tool.after", {"modify", "inject", "stop", "continue", "message"}, "output", C::kMessages, C::kNone},
      {"tool.permission.request",
       {"allow", "deny", "modify", "stop", "message"},
       "input",
       C::kObject,
       C::kNone},
      {"tool.batch.after", {"stop", "inject", "message"}, "", C::kNone, C::kNone},
      {"context.compact.before",
       {"deny", "modify", "return", "inject", "message"},
       "instructions",
       C::kTextParts,
       C::kTextParts},
      {"context.compact.after", {"inject", "modify", "message"}, "summary", C::kTextParts, C::kNone},
      {"task.change.before", {"deny", "message"}, "", C::kNone, C::kNone},
      {"user.elicitation.request", {"deny", "return", "message"}, "", C::kNone, C::kElicitResult},
      {"user.elicitation.result", {"modify", "message"}, "content", C::kFormAnswers, C::kNone},
      {"user.message.inbound", {"deny", "modify", "message"}, "prompt", C::kMessages, C::kNone},
      {"user.message.outbound", {"deny", "modify", "message"}, "content", C::kMessages, C::kNone},
      {"workspace.change.before", {"deny", "modify", "message"}, "workspace", C::kWorkspace, C::kNone},
  };
  return table;
}

const Boundary* boundary_of(std::string_view type) {
  for (const auto& b : boundaries())
    if (b.type == type) return &b;
  return nullptr;
}

namespace {

using json::Value;

constexpr std::array<std::string_view, 8> kEffectTypes = {"deny",    "allow",  "ask",  "modify",
                                                          "message", "return", "flow", "inject"};

const Value* at(const Value* v, std::string_view key) { return v && v->is_object() ? v->find(key) : nullptr; }

std::string string_at(const Value* v, std::string_view key) {
  const Value* s = at(v, key);
  return s && s->is_string() ? s->string_value() : "";
}

bool contains_string(const Value* list, std::string_view s) {
  if (!list || !list->is_array()) return false;
  return std::any_of(list->items().begin(), list->items().end(),
                     [&](const Value& v) { return v.is_string() && v.string_value() == s; });
}

bool is_true(const Value* v) { return v && v->is_bool() && v->as_bool(); }

bool positive_integer(const Value* v) {
  return v && v->is_number() && json::is_integral(v->number_text()) &&
         json::compare_numbers(v->number_text(), "0") > 0;
}

// A canonical message list and a text-part list, by shape: the canonical check of the response has
// already held each against the union of effect schemas; what remains is which contract the boundary's
// target takes.
bool is_messages(const Value& v) {
  if (!v.is_array()) return false;
  return std::all_of(v.items().begin(), v.items().end(), [](const Value& m) {
    const Value* parts = at(&m, "parts");
    return m.is_object() && at(&m, "role") && parts && parts->is_array();
  });
}

bool is_text_parts(const Value& v) {
  if (!v.is_array()) return false;
  return std::all_of(v.items().begin(), v.items().end(), [](const Value& p) {
    const Value* text = at(&p, "text");
    return p.is_object() && text && text->is_string();
  });
}

// FormAnswers: a dictionary of strings, numbers, booleans, or lists of strings.
bool is_form_answers(const Value& v) {
  if (!v.is_object()) return false;
  return std::all_of(v.members().begin(), v.members().end(), [](const json::Member& m) {
    const Value& a = m.value;
    if (a.is_string() || a.is_number() || a.is_bool()) return true;
    return a.is_array() &&
           std::all_of(a.items().begin(), a.items().end(), [](const Value& s) { return s.is_string(); });
  });
}

// A nonempty fragment of the known workspace contract.
bool is_workspace(const Value& v) {
  if (!v.is_object() || v.members().empty()) return false;
  return std::all_of(v.members().begin(), v.members().end(),
                     [](const json::Member& m) { return m.key == "cwd" || m.key == "workspaceRoots"; });
}

// The complete MCP ElicitResult: an action, and for accept a form answer.
bool is_elicit_result(const Value& v) {
  std::string action = string_at(&v, "action");
  if (action != "accept" && action != "decline" && action != "cancel") return false;
  const Value* content = at(&v, "content");
  return !content || is_form_answers(*content);
}

bool meets(Contract c, const Value& v) {
  switch (c) {
    case Contract::kNone:
      return false;
    case Contract::kAny:
      return true;
    case Contract::kObject:
      return v.is_object();
    case Contract::kMessages:
      return is_messages(v);
    case Contract::kTextParts:
      return is_text_parts(v);
    case Contract::kFormAnswers:
      return is_form_answers(v);
    case Contract::kWorkspace:
      return is_workspace(v);
    case Contract::kElicitResult:
      return is_elicit_result(v);
  }
  return false;
}

const char* contract_name(Contract c) {
  switch (c) {
    case Contract::kNone:
      return "nothing";
    case Contract::kAny:
      return "the declared tool result contract";
    case Contract::kObject:
      return "an object (the tool's input contract)";
    case Contract::kMessages:
      return "CanonicalMessages";
    case Contract::kTextParts:
      return "TextParts";
    case Contract::kFormAnswers:
      return "FormAnswers";
    case Contract::kWorkspace:
      return "a nonempty WorkspaceChange fragment (cwd, workspaceRoots)";
    case Contract::kElicitResult:
      return "a complete MCP ElicitResult";
  }
  return "";
}

// n - 1 for a nonnegative integer spelling, exactly (no double; counters have no schema maximum).
std::string decrement(const std::string& number) {
  std::string digits = json::canonical_number(number);
  if (auto e = digits.find_first_of("eE"); e != std::string::npos) {
    std::size_t zeros = std::stoul(digits.substr(e + 1));
    digits = digits.substr(0, e) + std::string(zeros, '0');
  }
  for (std::size_t i = digits.size(); i-- > 0;) {
    if (digits[i] != '0') {
      --digits[i];
      break;
    }
    digits[i] = '9';
  }
  std::size_t first = digits.find_first_not_of('0');
  return first == std::string::npos ? "0" : digits.substr(first);
}

Applied reject(const char* rule, std::string message) {
  Applied a;
  a.accepted = false;
  a.result = Value::object();
  a.result.add("rejected", Value::boolean(true));
  a.rule = rule;
  a.message = std::move(message);
  return a;
}

std::string first_error(const json::Validation& v) {
  if (v.errors.empty()) return "invalid";
  const json::SchemaError& e = v.errors.front();
  return (e.path.empty() ? std::string("(document)") : e.path) + " " + e.keyword + ": " + e.message;
}

std::string effect_at(std::size_t i) { return "/result/effects/" + std::to_string(i); }

}  // namespace

const std::vector<Rule>& rules() {
  static const std::vector<Rule> list = {
#define CROSSCHECK_HOST_RULE(constant, name, rejects, text) {constant, rejects, text},
#include "layers/contextual/host/host_rules.def"
#undef CROSSCHECK_HOST_RULE
  };
  return list;
}

bool is_tool_input_boundary(const std::string& event_type) {
  return event_type == "tool.before" || event_type == "tool.permission.request";
}

namespace {

// Records a rejecting rule that was checked on its subject and held; a no-op without coverage.
struct Held {
  RuleCoverage* coverage;
  void operator()(const char* rule) const {
    if (coverage) coverage->accepted(rule);
  }
};

// The composition rules whose construct this response carries, read from the request and the effects
// alone (so the same answer serves an accepted response, where they shaped the result, and a rejected
// one, where they must have published nothing).
std::vector<const char*> constructs(const Value& request, const Value& response) {
  std::vector<const char*> out;
  const Value* params = at(&request, "params");
  const Value* state = at(params, "state");
  std::string type = string_at(at(params, "event"), "type");
  const Value* effects_value = at(at(&response, "result"), "effects");
  if (!effects_value || (effects_value->is_array() && effects_value->items().empty()))
    out.push_back(kOmittedEffectsNeutral);
  if (!state) out.push_back(kOmittedState);
  if (!effects_value || !effects_value->is_array()) return out;
  std::size_t modifies = 0, returns = 0, permissions = 0, messages = 0, injects = 0;
  bool merge = false, replace = false, deny_or_ask = false, stop = false, proceed = false;
  for (const Value& e : effects_value->items()) {
    std::string t = string_at(&e, "type");
    if (t == "modify" && is_tool_input_boundary(type)) {
      ++modifies;
      merge = merge || string_at(&e, "operation") == "merge";
      replace = replace || string_at(&e, "operation") == "replace";
    }
    returns += t == "return";
    permissions += t == "deny" || t == "ask" || t == "allow";
    deny_or_ask = deny_or_ask || t == "deny" || t == "ask";
    messages += t == "message";
    injects += t == "inject";
    if (t == "flow") (string_at(&e, "operation") == "stop" ? stop : proceed) = true;
  }
  const Value* candidate = at(state, "candidate");
  bool incoming_candidate = candidate && candidate->is_object();
  if (modifies > 1 || (modifies && returns)) out.push_back(kModifyOrder);
  if (merge) out.push_back(kMergeShallow);
  if (replace) out.push_back(kReplaceDropsKeys);
  if (modifies && (incoming_candidate || string_at(state, "permission") == "allow"))
    out.push_back(kChangedInputInvalidates);
  if (permissions || (state && string_at(state, "permission") != "none"))
    out.push_back(kPermissionPrecedence);
  if (deny_or_ask && (incoming_candidate || returns)) out.push_back(kDenialDiscardsCandidate);
  if (messages) out.push_back(kMessagesInOrder);
  std::string prior = string_at(state, "flow");
  if ((stop || prior == "stop") && (proceed || prior == "continue")) out.push_back(kStopBeatsContinue);
  if (proceed && !stop) out.push_back(kContinueConsumesOne);
  if (injects) out.push_back(kInjectionsInOrder);
  if (type == "tool.before") out.push_back(kExecution);
  return out;
}

// Rule 7 over the whole occurrence: a stop or continue accepted earlier in it (params.state.flow,
// "none" being neither) is where this response's flow starts, and the instructions accepted with it
// (params.state.instructions) come before this response's. An earlier stop stays, as a stop effect would.
struct Flow {
  bool stop = false;
  bool proceed = false;
  bool new_continue = false;  ///< this response has a continue effect
  Value instructions = Value::array();
  std::string name() const { return stop ? "stop" : proceed ? "continue" : ""; }
};

Flow resolve_flow(const Value* state, const std::vector<Value>& effects) {
  Flow f;
  std::string prior = string_at(state, "flow");
  f.stop = prior == "stop";
  f.proceed = prior == "continue";
  if (const Value* incoming = at(state, "instructions"); incoming && incoming->is_array())
    for (const Value& i : incoming->items()) f.instructions.push(i);
  for (const Value& e : effects) {
    if (string_at(&e, "type") != "flow") continue;
    bool is_stop = string_at(&e, "operation") == "stop";
    f.stop = f.stop || is_stop;
    f.proceed = f.proceed || !is_stop;
    f.new_continue = f.new_continue || !is_stop;
    if (const Value* instruction = at(&e, "instruction"); !is_stop && instruction)
      f.instructions.push(*instruction);
  }
  return f;
}

// The advertised remaining allowance when it is an integer (the counters have no maximum), else null.
const Value* counted_allowance(const Value* caps) {
  const Value* remaining = at(at(caps, "flow"), "remainingContinuations");
  return remaining && remaining->is_number() && json::is_integral(remaining->number_text()) ? remaining
                                                                                            : nullptr;
}

Applied apply_checked(const canonical::CanonicalValidator& validator, const Value& request,
                      const Value& response, const Held& held) {
  auto request_verdict = validator.validate_value("intercept-request", request);
  if (!request_verdict) return reject(kRequestCanonical, "the schema has no intercept-request document");
  if (!request_verdict->valid)
    return reject(kRequestCanonical, "the request is not canonical: " + first_error(*request_verdict));
  held(kRequestCanonical);

  const Value* params = at(&request, "params");
  const Value* event = at(params, "event");
  const Value* caps = at(params, "capabilities");
  const Value* state = at(params, "state");
  std::string type = string_at(event, "type");

  // Rule 3: the envelope, version, correlation and every effect, before anything is composed.
  const Value* jsonrpc = at(&response, "jsonrpc");
  const Value* result = at(&response, "result");
  if (!response.is_object() || !jsonrpc || !jsonrpc->is_string() || jsonrpc->string_value() != "2.0")
    return reject(kEnvelope, "/jsonrpc: expected \"2.0\"");
  if (response.contains("error")) return reject(kEnvelope, "/error: a JSON-RPC error is not a result");
  if (!result || !result->is_object()) return reject(kEnvelope, "/result: expected an object");
  held(kEnvelope);
  const Value* id = at(&response, "id");
  const Value* request_id = at(&request, "id");
  if (!id || !request_id || !json::semantically_equal(*id, *request_id))
    return reject(kIdCorrelation, "/id: expected the request's id");
  held(kIdCorrelation);
  const Value* version = at(result, "protocolVersion");
  const Value* request_version = at(params, "protocolVersion");
  if (!version || !request_version || !json::semantically_equal(*version, *request_version))
    return reject(kProtocolVersion, "/result/protocolVersion: expected the request's protocolVersion");
  held(kProtocolVersion);
  const Value* effects_value = at(result, "effects");
  if (effects_value && !effects_value->is_array())
    return reject(kEffectsList, "/result/effects: expected a list (or no member)");
  held(kEffectsList);
  static const Value kNoEffects = Value::array();
  const std::vector<Value>& effects = (effects_value ? *effects_value : kNoEffects).items();
  for (std::size_t i = 0; i < effects.size(); ++i) {
    std::string t = string_at(&effects[i], "type");
    if (std::find(kEffectTypes.begin(), kEffectTypes.end(), t) == kEffectTypes.end())
      return reject(kUnknownEffectType, effect_at(i) + "/type: unknown effect type");
  }
  if (!effects.empty()) held(kUnknownEffectType);
  auto response_verdict = validator.validate_value("intercept-response", response);
  if (!response_verdict) return reject(kResponseCanonical, "the schema has no intercept-response document");
  if (!response_verdict->valid)
    return reject(kResponseCanonical, "the response is not canonical: " + first_error(*response_verdict));
  held(kResponseCanonical);

  const Boundary* boundary = boundary_of(type);
  for (std::size_t i = 0; i < effects.size(); ++i) {
    const Value& e = effects[i];
    std::string t = string_at(&e, "type");
    std::string kind = t == "flow" ? string_at(&e, "operation") : t;
    bool admitted = boundary && std::find(boundary->effects.begin(), boundary->effects.end(), kind) !=
                                    boundary->effects.end();
    if (t == "return" && !admitted)
      return reject(kReturnBoundary, effect_at(i) + ": " + type + " is not a return boundary");
    if (!admitted && t != "modify")
      return reject(kEffectBoundary, effect_at(i) + ": " + kind + " is not admitted at " + type);
    if (t == "return") held(kReturnBoundary);
    if (t != "modify") held(kEffectBoundary);
    if (!contains_string(at(caps, "effects"), t))
      return reject(kEffectNotAdvertised, effect_at(i) + ": " + t + " is not in capabilities.effects");
    held(kEffectNotAdvertised);
    if (t == "modify") {
      std::string target = string_at(&e, "target");
      std::string operation = string_at(&e, "operation");
      const Value* advertised = at(at(caps, "modify"), target);
      if (!admitted || boundary->modify_target != target || !advertised)
        return reject(kModifyTarget,
                      effect_at(i) + "/target: " + target + " is not a supported target at " + type);
      held(kModifyTarget);
      if (!is_true(at(advertised, operation)))
        return reject(kModifyOperation,
                      effect_at(i) + "/operation: " + operation + " is not advertised for " + target);
      held(kModifyOperation);
      const Value* value = at(&e, "value");
      if (!value || !meets(boundary->modify, *value))
        return reject(kModifyValue, effect_at(i) + "/value: " + target + " at " + type + " takes " +
                                        contract_name(boundary->modify));
      held(kModifyValue);
    }
    if (t == "return") {
      const Value* value = at(&e, "value");
      if (!value || !meets(boundary->returns, *value))
        return reject(kReturnValue, effect_at(i) + "/value: a return at " + type + " takes " +
                                        contract_name(boundary->returns));
      held(kReturnValue);
    }
    if (t == "flow") {
      const Value* flow = at(caps, "flow");
      if (!contains_string(at(flow, "operations"), kind))
        return reject(kFlowOperation,
                      effect_at(i) + "/operation: " + kind + " is not in capabilities.flow.operations");
      held(kFlowOperation);
      if (kind == "continue" && !positive_integer(at(flow, "remainingContinuations")))
        return reject(kContinuationAllowance,
                      effect_at(i) + ": continue needs a positive capabilities.flow.remainingContinuations");
      if (kind == "continue") held(kContinuationAllowance);
    }
    if (t == "inject") {
      const Value* context = at(at(caps, "inject"), string_at(&e, "target"));
      if (!is_true(at(context, string_at(&e, "operation"))) ||
          !contains_string(at(context, "deliverAt"), string_at(&e, "deliverAt")))
        return reject(kInjectDelivery, effect_at(i) + "/deliverAt: " + string_at(&e, "deliverAt") +
                                           " is not an advertised delivery");
      held(kInjectDelivery);
    }
  }

  // Accepted: compose (rules 1, 2, 4-9).
  bool tool_input = is_tool_input_boundary(type);
  const Value* tool_input_value = at(at(event, "tool"), "input");
  Value original = tool_input && tool_input_value ? *tool_input_value : Value::null();
  Value input = original;
  for (const Value& e : effects) {
    if (string_at(&e, "type") != "modify" || !tool_input) continue;
    const Value& value = *at(&e, "value");
    if (string_at(&e, "operation") == "replace" || !input.is_object()) {
      input = value;
      continue;
    }
    for (const auto& m : value.members()) {
      if (Value* existing = input.find(m.key))
        *existing = m.value;
      else
        input.add(m.key, m.value);
    }
  }
  std::string permission = state ? string_at(state, "permission") : "none";
  const Value* incoming_candidate = at(state, "candidate");
  bool has_candidate = incoming_candidate && incoming_candidate->is_object();
  Value candidate =
      has_candidate && at(incoming_candidate, "value") ? *at(incoming_candidate, "value") : Value();
  if (tool_input && !json::semantically_equal(input, original)) {
    has_candidate = false;
    if (permission == "allow") permission = "none";
  }
  Value messages = Value::array();
  Value injections = Value::array();
  if (const Value* incoming = at(state, "injections"); incoming && incoming->is_array())
    for (const Value& j : incoming->items()) injections.push(j);
  Flow resolved = resolve_flow(state, effects);
  bool stop = resolved.stop;
  for (const Value& e : effects) {
    std::string t = string_at(&e, "type");
    if (t == "deny") permission = "deny";
    if (t == "ask" && permission != "deny") permission = "ask";
    if (t == "allow" && (permission == "none" || permission == "allow")) permission = "allow";
    if (t == "return") {
      has_candidate = true;
      candidate = *at(&e, "value");
    }
    if (t == "message") messages.push(*at(&e, "text"));
    if (t == "inject") injections.push(e);
  }
  std::string decision = permission == "none" ? "allow" : permission;
  if (decision != "allow") has_candidate = false;
  std::string flow = resolved.name();
  Value instructions = std::move(resolved.instructions);
  bool applies = decision == "allow" && !stop && has_candidate;

  Applied a;
  a.accepted = true;
  Value out = Value::object();
  out.add("decision", Value::string(decision));
  out.add("executed",
          Value::boolean(type == "tool.before" && decision == "allow" && !stop && !has_candidate));
  if (tool_input) out.add("input", input);
  out.add("messages", std::move(messages));
  if (applies) out.add("result", candidate);
  const Value* remaining = counted_allowance(caps);
  if (!flow.empty()) out.add("flow", Value::string(flow));
  if ((!flow.empty() && remaining) || !instructions.items().empty())
    out.add("continuationInstructions", std::move(instructions));
  // One unit when this response's continue resolves; an earlier continue alone spends none here (a
  // choice where the contract is silent: open_keys()).
  if (!flow.empty() && remaining)
    out.add("continuationRemaining", flow == "continue" && resolved.new_continue
                                         ? Value::number(decrement(remaining->number_text()))
                                         : *remaining);
  if (!injections.items().empty()) out.add("injections", std::move(injections));

  // The synthetic host's own tool contract, after the SDK layer settled: refused, nothing executes.
  if (type == "tool.before" &&
      !(input.is_object() && positive_integer(input.find("task")) && !input.find("task")->is_bool())) {
    a.host_accepted = false;
    a.rule = kHostInput;
    a.message = "/params/event/tool/input: the effective input needs a positive integer task";
    *out.find("executed") = Value::boolean(false);
    Value trimmed = Value::object();
    for (auto& m : out.members())
      if (m.key != "result") trimmed.add(m.key, std::move(m.value));
    out = std::move(trimmed);
  } else if (type == "tool.before") {
    held(kHostInput);
  }
  a.result = std::move(out);
  return a;
}

}  // namespace

Applied apply(const canonical::CanonicalValidator& validator, const Value& request, const Value& response,
              RuleCoverage* coverage) {
  Applied a = apply_checked(validator, request, response, Held{coverage});
  if (!coverage) return a;
  if (!a.rule.empty()) coverage->rejected(a.rule);
  if (a.rule == kRequestCanonical) return a;
  for (const char* rule : constructs(request, response)) {
    if (a.accepted)
      coverage->accepted(rule);
    else
      coverage->rejected(rule);
  }
  return a;
}

std::vector<OpenKey> open_keys(const Value& request, const Value& response) {
  const Value* params = at(&request, "params");
  const Value* state = at(params, "state");
  const Value* effects_value = at(at(&response, "result"), "effects");
  static const Value kNoEffects = Value::array();
  const auto& effects = (effects_value && effects_value->is_array() ? *effects_value : kNoEffects).items();
  Flow f = resolve_flow(state, effects);
  bool counted = counted_allowance(at(params, "capabilities")) != nullptr;
  std::vector<OpenKey> out;
  // Whether earlier instructions are reported when no flow resolved, or as an empty list without an
  // allowance: the result key is "accepted continue instructions", the contract says nothing of
  // incoming ones.
  if (at(state, "instructions") && (f.name().empty() || (!counted && f.instructions.items().empty())))
    out.push_back({"continuationInstructions", "incoming-instructions-reported"});
  // Whether an earlier continue, with no continue in this response, spends the unit here: the
  // contract deducts one "when the accepted response resolves to continue".
  if (counted && string_at(state, "flow") == "continue" && !f.stop && !f.new_continue)
    out.push_back({"continuationRemaining", "incoming-continue-allowance"});
  return out;
}

}  // namespace crosscheck::host
