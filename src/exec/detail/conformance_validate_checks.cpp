// conformance_validate_checks.cpp: the check of the validate op (layer 2), for an adapter whose hello
// lists the canonical layer.
#include <algorithm>
#include <map>
#include <set>

#include "exec/detail/conformance_session.hpp"
#include "exec/protocol_codec.hpp"
#include "util/base64.hpp"

namespace crosscheck::exec::conformance::detail {

using core::Verdict;
using core::verdict_name;

// Layer 2: the validate op, for an adapter whose hello lists the canonical layer.
CheckResult check_validate(Session& s, Context& c) {
  const std::string name = "validate-op";
  if (!c.canonical) {
    return pass(name, "hello lists no canonical layer: not asked (left out of layer-2 comparisons)");
  }
  const std::string& document = c.o.validate_document;
  struct Case {
    std::string label, document, input;  // input: base64 text as sent
    std::vector<Verdict> want;
    std::optional<std::string> message;  // exact message wanted, if any
  };
  std::vector<Case> cases = {
      {"an empty object as " + document,
       document,
       base64_encode("{}"),
       {Verdict::kInvalid, Verdict::kValid},
       std::nullopt},
      {"text that is not JSON", document, base64_encode("{\"jsonrpc\":"), {Verdict::kInvalid}, std::nullopt},
      {"an unknown document",
       "no-such-document-crosscheck",
       base64_encode("{}"),
       {Verdict::kUnsupported},
       std::nullopt},
      {"invalid base64", document, "@@not base64@@", {Verdict::kError}, std::string("invalid base64")},
      {"bytes that are not UTF-8",
       document,
       base64_encode("\xff{}"),
       {Verdict::kError, Verdict::kInvalid},
       std::nullopt},
  };
  // All pipelined, plus a validate without a document (a bad request, answered with its id).
  std::map<std::uint64_t, const Case*> asked;
  std::string lines;
  for (const Case& k : cases) {
    std::uint64_t id = c.next_id++;
    asked[id] = &k;
    lines += "{\"op\":\"validate\",\"id\":" + std::to_string(id) + ",\"document\":" + quoted(k.document) +
             ",\"input\":\"" + k.input + "\"}\n";
  }
  std::uint64_t bad_id = c.next_id++;
  lines += "{\"op\":\"validate\",\"id\":" + std::to_string(bad_id) + ",\"input\":\"e30=\"}\n";
  s.send(lines);
  std::set<std::uint64_t> ids;
  for (const auto& [id, k] : asked) ids.insert(id);
  ids.insert(bad_id);
  Collected got;
  if (auto why = collect(s, c, ids, 0, got, "the validate answers")) return fail(name, *why);
  std::string seen;
  for (const auto& [id, answer] : got.by_id) {
    if (auto problem = protocol::schema_problem(protocol::Line::kValidateAnswer, answer))
      return fail(name, "answer to validate " + std::to_string(id) + " breaks its schema " + *problem);
    auto r = protocol::parse_validate_answer(answer);
    if (!r.ok()) return fail(name, "answer to validate " + std::to_string(id) + ": " + r.error());
    if (id == bad_id) {
      if (r->verdict != Verdict::kError || !r->message || r->message->rfind("bad request", 0) != 0)
        return fail(name, "a validate without a document answered " + std::string(verdict_name(r->verdict)) +
                              ", want error \"bad request: ...\"");
      continue;
    }
    const Case& k = *asked.at(id);
    bool wanted = std::find(k.want.begin(), k.want.end(), r->verdict) != k.want.end();
    if (!wanted || (k.message && r->message != k.message)) {
      std::string want;
      for (Verdict v : k.want) want += (want.empty() ? "" : " or ") + std::string(verdict_name(v));
      return fail(name, k.label + " answered " + verdict_name(r->verdict) +
                            (r->message ? " (message " + quoted(*r->message) + ")" : "") + ", want " + want +
                            (k.message ? " with message " + quoted(*k.message) : ""));
    }
    seen += (seen.empty() ? "" : ", ") + k.label + " " + verdict_name(r->verdict);
  }
  return pass(name, seen + "; a validate without a document: error with its id");
}

}  // namespace crosscheck::exec::conformance::detail
