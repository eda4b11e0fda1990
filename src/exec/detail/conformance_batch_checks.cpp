// conformance_batch_checks.cpp: the check of the batch op, for an adapter whose hello lists it.
#include "exec/detail/conformance_session.hpp"
#include "exec/protocol_codec.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"

namespace crosscheck::exec::conformance::detail {

using core::outcome_name;
using json::Value;

namespace {

bool contains_bad_request(const std::optional<std::string>& message) {
  return message && message->rfind("bad request", 0) == 0;
}

}  // namespace

// The batch op, for an adapter whose hello lists it: one line of entries (good ones, a bad one, a
// validate when the canonical layer is listed) is answered by exactly one line with one answer per
// entry, in order, each with its entry's id and in its op's form; one entry more than batch.max is
// refused with the refusal form. Answers split over lines, missing, reordered, duplicated or under
// other ids fail here.
CheckResult check_batch(Session& s, Context& c) {
  const std::string name = "batch-op";
  if (c.batch_max == 0) return pass(name, "hello lists no batch op: sent single requests");
  enum class Kind { kDecode, kValidate, kBad };
  struct Entry {
    std::string label, line;
    Kind kind;
    std::uint64_t id;
    std::optional<std::string> want;  // the outcome wanted, if one is fixed
  };
  std::vector<Entry> entries;
  auto add = [&](std::string label, Kind kind, std::optional<std::string> want, auto make) {
    std::uint64_t id = kind == Kind::kBad ? kNoId : c.next_id++;
    entries.push_back({std::move(label), make(id), kind, id, std::move(want)});
  };
  std::string input = base64_encode(c.valid_input);
  add("a decode", Kind::kDecode, std::nullopt,
      [&](std::uint64_t id) { return decode_line(id, c.root, input); });
  add("an unknown root", Kind::kDecode, "unsupported",
      [&](std::uint64_t id) { return decode_line(id, c.unknown_root, input); });
  add("an entry that is not an object", Kind::kBad, "error",
      [](std::uint64_t) { return std::string("7\n"); });
  if (c.canonical) {
    add("a validate", Kind::kValidate, std::nullopt, [&](std::uint64_t id) {
      return protocol::validate_request(id, c.o.validate_document, c.valid_input);
    });
  }
  add("invalid base64", Kind::kDecode, "error",
      [&](std::uint64_t id) { return decode_line(id, c.root, "@@not base64@@"); });
  std::vector<std::string> lines;
  for (const Entry& e : entries) lines.push_back(e.line);
  std::uint64_t batch_id = c.next_id++;
  s.send(protocol::batch_request(batch_id, lines));
  std::string line;
  Status status = s.next(line, c.o.deadline);
  if (status != Status::kLine) return fail(name, s.failure(status, "the batch answer", c.o.deadline));
  std::string why;
  auto reply = parse_line(line, why);
  if (!reply) return fail(name, "got " + why);
  if (auto problem = protocol::schema_problem(protocol::Line::kBatchReply, *reply))
    return fail(name, "the batch answer breaks its schema " + *problem + ": " + protocol::excerpt(line));
  if (protocol::answer_id(*reply) != batch_id)
    return fail(name, "the batch answer's id is not the batch's " + std::to_string(batch_id));
  const auto& answers = reply->find("answers")->items();
  if (answers.size() != entries.size()) {
    return fail(name, std::to_string(answers.size()) + " answers for " + std::to_string(entries.size()) +
                          " entries (one line must answer them all, in order)");
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const Value& a = answers[i];
    const Value* id = a.find("id");
    bool id_ok = e.kind == Kind::kBad ? id != nullptr && id->is_null() : protocol::answer_id(a) == e.id;
    if (!id_ok) {
      return fail(name, "answer #" + std::to_string(i) + " (to " + e.label + ") has id " +
                            (id ? json::write(*id) : std::string("(none)")) + ", want " +
                            (e.kind == Kind::kBad ? std::string("null") : std::to_string(e.id)) +
                            ": answers go in request order");
    }
    std::string outcome;
    if (e.kind == Kind::kValidate) {
      if (auto problem = protocol::schema_problem(protocol::Line::kValidateAnswer, a))
        return fail(name, "answer to " + e.label + " breaks its schema " + *problem);
    } else {
      auto r = decode_answer(a, e.id);
      if (!r.ok()) return fail(name, "answer to " + e.label + ": " + r.error());
      if (e.kind == Kind::kBad && !contains_bad_request(r->message))
        return fail(name, e.label + " answered without \"bad request: ...\"");
      outcome = outcome_name(r->outcome);
    }
    if (e.want && outcome != *e.want)
      return fail(name, e.label + " answered " + outcome + ", want " + *e.want);
  }
  // One entry over the limit: refused, in one line, with the batch's id.
  std::vector<std::string> over;
  for (std::size_t i = 0; i <= c.batch_max; ++i) over.push_back(decode_line(c.next_id++, c.root, input));
  std::uint64_t over_id = c.next_id++;
  s.send(protocol::batch_request(over_id, over));
  status = s.next(line, c.o.deadline);
  if (status != Status::kLine)
    return fail(name, s.failure(status, "the answer to an over-long batch", c.o.deadline));
  reply = parse_line(line, why);
  if (!reply) return fail(name, "got " + why);
  if (auto problem = protocol::schema_problem(protocol::Line::kBatchRefusal, *reply)) {
    return fail(name, "a batch of " + std::to_string(over.size()) + " (max " + std::to_string(c.batch_max) +
                          ") was not refused: " + *problem + ": " + protocol::excerpt(line));
  }
  if (protocol::answer_id(*reply) != over_id) return fail(name, "the refusal's id is not the batch's");
  return pass(name, std::to_string(entries.size()) + " entries answered in order in one line, a bad entry " +
                        "as a bad request; " + std::to_string(over.size()) +
                        " entries refused: " + reply->find("error")->string_value());
}

}  // namespace crosscheck::exec::conformance::detail
