// conformance_decode_checks.cpp: the checks of the decode op: ids, pipelining, unknown roots, bad base64,
// text that is not JSON or not UTF-8, a byte-order mark, a large payload, bad request lines.
#include <algorithm>
#include <set>

#include "exec/detail/conformance_session.hpp"
#include "exec/protocol_codec.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"

namespace crosscheck::exec::conformance::detail {

using core::Diag;
using core::Outcome;
using core::outcome_name;
using json::Value;

CheckResult check_ids(Session& s, Context& c) {
  const std::string name = "ids-echoed";
  // Ids past 2^31 and 2^32 catch an adapter that narrows them; all stay exact in a double.
  const std::uint64_t ids[] = {1, 42, 65535, 2147483648ull, 4294967297ull};
  std::string input = base64_encode(c.valid_input);
  for (std::uint64_t id : ids) {
    s.send(decode_line(id, c.root, input));
    std::string line;
    Status status = s.next(line, c.o.deadline);
    if (status != Status::kLine)
      return fail(name, s.failure(status, "the answer to id " + std::to_string(id), c.o.deadline));
    std::string why;
    auto answer = parse_line(line, why);
    if (!answer) return fail(name, "request id " + std::to_string(id) + " got " + why);
    auto got = protocol::answer_id(*answer);
    const Value* raw = answer->find("id");
    if (!got || *got != id) {
      return fail(name, "request id " + std::to_string(id) + " was answered with id " +
                            (raw ? json::write(*raw) : std::string("(none)")) + ": " +
                            protocol::excerpt(line));
    }
    auto r = decode_answer(*answer, id);
    if (!r.ok()) return fail(name, r.error());
    if (auto problem = encoded_problem(r.value()))
      return fail(name, "answer to id " + std::to_string(id) + ": " + *problem);
  }
  return pass(name, "ids 1, 42, 65535, 2^31, 2^32+1 echoed, one answer each");
}

CheckResult check_pipelining(Session& s, Context& c) {
  const std::string name = "pipelining";
  // Mixed inputs, so answers that take different paths through the SDK may overtake each other.
  const std::vector<std::string> inputs = {c.valid_input,     "{}", "[]", "{\"a\":", "null", "\"text\"",
                                           "{\"x\":[1,2,{}]}"};
  std::set<std::uint64_t> ids;
  std::string batch;
  for (std::size_t i = 0; i < c.o.in_flight; ++i) {
    std::uint64_t id = c.next_id++;
    ids.insert(id);
    batch += decode_line(id, c.root, base64_encode(inputs[i % inputs.size()]));
  }
  auto start = Clock::now();
  s.send(batch);  // every request is written before any answer is read
  Collected got;
  if (auto why = collect(s, c, ids, 0, got, "answers to the pipelined requests")) {
    return fail(name, *why + " (" + std::to_string(got.by_id.size()) + " of " + std::to_string(ids.size()) +
                          " answered)");
  }
  for (const auto& [id, answer] : got.by_id) {
    if (auto r = decode_answer(answer, id); !r.ok()) return fail(name, r.error());
  }
  std::size_t overtaken = 0;
  for (std::size_t i = 1; i < got.order.size(); ++i) overtaken += got.order[i] < got.order[i - 1];
  return pass(name, std::to_string(ids.size()) + " requests in flight, each answered once in " +
                        std::to_string(elapsed_ms(start)) + " ms (" +
                        (overtaken ? std::to_string(overtaken) + " answers out of order" : "in order") + ")");
}

CheckResult check_unknown_root(Session& s, Context& c) {
  const std::string name = "unknown-root";
  // "whatever the input": the root is judged before the payload.
  struct Case {
    std::string input, label;
  };
  for (const Case& k : {Case{base64_encode(c.valid_input), "a valid payload"},
                        Case{base64_encode("\xff{\"a\":"), "bytes that are neither UTF-8 nor JSON"}}) {
    auto r = ask(s, c, c.unknown_root, k.input, "an unknown root");
    if (!r.ok()) return fail(name, r.error());
    if (r->outcome != Outcome::kUnsupported) {
      return fail(name, "root " + quoted(c.unknown_root) + " with " + k.label + " answered " +
                            outcome_text(r.value()) + ", want unsupported");
    }
    if (!r->diagnostics.empty()) return fail(name, "unsupported answer carries diagnostics");
  }
  return pass(name, quoted(c.unknown_root) +
                        " answered unsupported, with a valid payload and with bytes that are not "
                        "UTF-8");
}

CheckResult check_invalid_base64(Session& s, Context& c) {
  const std::string name = "invalid-base64";
  for (const char* input : {"@@not base64@@", "e30"}) {  // "e30" is "{}" without its padding
    auto r = ask(s, c, c.root, input, "invalid base64");
    if (!r.ok()) return fail(name, r.error());
    if (r->outcome != Outcome::kError || r->message != "invalid base64") {
      return fail(name, std::string("input \"") + input + "\" answered " + outcome_text(r.value()) +
                            ", want error with message \"invalid base64\"");
    }
  }
  return pass(name, "\"@@not base64@@\" and unpadded \"e30\" answered error \"invalid base64\"");
}

CheckResult check_invalid_json(Session& s, Context& c) {
  const std::string name = "invalid-json";
  for (const char* text : {"{\"ref\":", "not json"}) {
    auto r = ask(s, c, c.root, base64_encode(text), "text that is not JSON");
    if (!r.ok()) return fail(name, r.error());
    bool diagnosed = std::any_of(r->diagnostics.begin(), r->diagnostics.end(), [](const Diag& d) {
      return d.code == "invalid_json" && d.severity == "error";
    });
    if (r->outcome != Outcome::kRejected || !diagnosed) {
      return fail(name, std::string("input ") + quoted(text) + " answered " + outcome_text(r.value()) +
                            " with " + std::to_string(r->diagnostics.size()) +
                            " diagnostics, want rejected with an invalid_json error (docs/protocol.md)");
    }
  }
  return pass(name, "truncated and bare-word text rejected with invalid_json");
}

namespace {

// Languages whose SDK text entrypoint takes a string: bytes that are not UTF-8 cannot be handed over.
bool takes_a_string(const std::string& language) {
  return language == "python" || language == "rust" || language == "typescript" || language == "javascript";
}

}  // namespace

CheckResult check_not_utf8(Session& s, Context& c) {
  const std::string name = "not-utf8";
  const std::string bytes = "\xff\xfe{\"ref\":\"\xc3(\"}";
  auto r = ask(s, c, c.root, base64_encode(bytes), "bytes that are not UTF-8");
  if (!r.ok()) return fail(name, r.error());
  if (takes_a_string(c.language)) {
    if (r->outcome != Outcome::kError || r->message != "input is not UTF-8") {
      return fail(name, "answered " + outcome_text(r.value()) + ", want error \"input is not UTF-8\" (a " +
                            c.language + " text entrypoint takes a string; docs/protocol.md)");
    }
  } else if (r->outcome != Outcome::kError && r->outcome != Outcome::kRejected) {
    return fail(name, "answered " + outcome_text(r.value()) + ", want error or rejected");
  }
  return pass(name, "answered " + outcome_text(r.value()));
}

// A leading byte-order mark is passed on to the SDK, never stripped or refused by the adapter.
CheckResult check_byte_order_mark(Session& s, Context& c) {
  const std::string name = "byte-order-mark";
  auto r = ask(s, c, c.root, base64_encode("\xef\xbb\xbf" + c.valid_input), "a payload after a BOM");
  if (!r.ok()) return fail(name, r.error());
  if (r->outcome != Outcome::kAccepted && r->outcome != Outcome::kRejected) {
    return fail(name, "answered " + outcome_text(r.value()) +
                          ", want accepted or rejected (the BOM is the SDK's to judge; docs/protocol.md)");
  }
  return pass(name, "UTF-8 BOM before a valid payload answered " + std::string(outcome_name(r->outcome)));
}

namespace {

std::string large_payload(const Context& c) {
  std::string head =
      c.root == "content_reference" ? R"({"ref":"ahp://crosscheck/large","x-large":")" : R"({"x-large":")";
  std::string text = head;
  const std::string piece = "crosscheck \xc3\xa9t\xc3\xa9 0123456789 ";  // UTF-8, not only ASCII
  while (text.size() + piece.size() + 2 <= c.o.large_payload_bytes) text += piece;
  return text + "\"}";
}

}  // namespace

CheckResult check_large(Session& s, Context& c) {
  const std::string name = "large-payload";
  std::string payload = large_payload(c);
  auto start = Clock::now();
  auto r =
      ask(s, c, c.root, base64_encode(payload), "a " + std::to_string(payload.size() >> 10) + " KiB payload");
  if (!r.ok()) return fail(name, r.error());
  if (r->outcome != Outcome::kAccepted && r->outcome != Outcome::kRejected) {
    return fail(name, "a " + std::to_string(payload.size()) + "-byte payload answered " +
                          outcome_text(r.value()) +
                          ", want accepted or rejected (lines have no length limit)");
  }
  if (auto problem = encoded_problem(r.value())) return fail(name, *problem);
  std::string encoded = r->encoded ? ", re-encoding " + std::to_string(r->encoded->size()) + " bytes" : "";
  return pass(name, std::to_string(payload.size()) + " bytes answered " + outcome_name(r->outcome) + " in " +
                        std::to_string(elapsed_ms(start)) + " ms" + encoded);
}

CheckResult check_bad_requests(Session& s, Context& c) {
  const std::string name = "bad-request-lines";
  // Three lines without a usable id (id null expected), two with an integer id (echoed).
  std::string lines = "this is not json\n[1,2,3]\n";
  lines += "{\"op\":\"decode\",\"root\":" + quoted(c.root) + ",\"input\":\"e30=\"}\n";
  lines += "{\"op\":\"frobnicate\",\"id\":77}\n";
  lines += "{\"op\":\"decode\",\"id\":78,\"root\":" + quoted(c.root) + "}\n";
  s.send(lines);
  Collected got;
  if (auto why = collect(s, c, {77, 78}, 3, got, "answers to bad request lines")) return fail(name, *why);
  for (const Value& a : got.null_id) {
    auto r = decode_answer(a, kNoId);
    if (!r.ok()) return fail(name, r.error());
    if (r->outcome != Outcome::kError)
      return fail(name, "an id-null answer has outcome " + outcome_text(r.value()));
  }
  for (const auto& [id, a] : got.by_id) {
    auto r = decode_answer(a, id);
    if (!r.ok()) return fail(name, r.error());
    if (r->outcome != Outcome::kError) {
      return fail(name, "bad request with id " + std::to_string(id) + " answered " + outcome_text(r.value()));
    }
  }
  return pass(name,
              "a non-JSON line, an array and an id-less decode answered error with id null; an unknown op "
              "and a decode without input answered error with their ids");
}

}  // namespace crosscheck::exec::conformance::detail
