// pool_answers.cpp: the lines a process writes, matched by id to the requests they answer: the hello
// (which also says whether the process takes batch lines), single answers and batch answers. A
// line that answers nothing the process was asked, or answers it twice, is a failure
// (pool_failures.cpp) charged to the request it names when it names one.
#include <algorithm>
#include <functional>

#include "exec/detail/pool_impl.hpp"
#include "exec/protocol_codec.hpp"
#include "json/parse.hpp"

namespace crosscheck::exec {

using namespace pool_detail;

void AdapterPool::Impl::finish(std::size_t slot, Outcome outcome, std::string message, std::string tail,
                               double ms) {
  Slot& s = this->slot(slot);
  s.result = ImplResult{};
  s.result.implementation = spec.name;
  s.result.outcome = outcome;
  s.result.message = std::move(message);
  s.result.stderr_tail = std::move(tail);
  s.result.millis = ms;
  s.nanos.reset();
  s.verdict.reset();
  mark_done(slot, true);
  if (outcome == Outcome::kCrash) ++counters.crashes;
  if (outcome == Outcome::kTimeout) ++counters.timeouts;
  if (outcome == Outcome::kProtocol) ++counters.protocol_errors;
}

void AdapterPool::Impl::abandon(std::size_t slot, std::string why) {
  finish(slot, Outcome::kError, std::move(why), "", 0);
  this->slot(slot).result.abandoned = true;
}

void AdapterPool::Impl::mark_done(std::size_t i, bool done) {
  Slot& s = slot(i);
  if (s.done == done) return;
  s.done = done;
  for (Job& job : jobs) {
    if (i >= job.first && i < job.first + job.count) {
      done ? ++job.done : --job.done;
      return;
    }
  }
}

void AdapterPool::Impl::on_line(Proc& p, std::string_view line) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;  // blank lines carry nothing
  if (p.state == State::kReady) {
    on_answer(p, line);
    return;
  }
  auto hello = protocol::parse_hello(line, options.max_line_bytes);
  if (!hello.ok()) {
    handshake_failed(p, hello.error());
    return;
  }
  if (!have_identity) {
    identity = std::move(hello).value();
    identity.name = spec.name;
    have_identity = true;
  }
  p.state = State::kReady;
  p.last_progress = Clock::now();
  std::size_t batch_max = protocol::hello_batch_max(line, options.max_line_bytes);
  if (batch_max >= 2) {
    p.batch_limit = std::min({batch_max, options.max_batch, p.batch_cap,
                              std::max<std::size_t>(1, options.max_in_flight / kBatchesInFlight)});
  }
}

void AdapterPool::Impl::on_answer(Proc& p, std::string_view line) {
  json::ParseLimits limits;
  limits.max_bytes = options.max_line_bytes;
  auto parsed = json::parse(line, limits);
  if (!parsed.ok() || !parsed.value().is_object()) {
    std::string why = parsed.ok() ? "not an object" : parsed.error().message();
    fail(p, std::nullopt, Outcome::kProtocol,
         "unparseable answer line (" + why + "): " + protocol::excerpt(line));
    return;
  }
  const json::Value& answer = parsed.value();
  auto id = protocol::answer_id(answer);
  if (!id) {
    fail(p, std::nullopt, Outcome::kProtocol, "answer without an integer id: " + protocol::excerpt(line));
    return;
  }
  if (auto batch = p.batches.find(*id); batch != p.batches.end()) {
    on_batch_answer(p, answer, *id, line);
    return;
  }
  if (auto it = p.in_flight.find(*id); it != p.in_flight.end() && it->second.batch != 0) {
    fail(p, it->second.slot, Outcome::kProtocol,
         "answered request " + std::to_string(*id) + " of batch " + std::to_string(it->second.batch) +
             " on a line of its own: " + protocol::excerpt(line));
    return;
  }
  on_entry(p, answer, *id, std::hash<std::string_view>{}(line), line);
}

// One batch line's answer: a refusal sends its entries back to the queue for smaller batches; else
// answers[i] must answer entries[i] (same id), and the first one that does not, and every entry
// after it, get protocol results (the process is restarted).
void AdapterPool::Impl::on_batch_answer(Proc& p, const json::Value& answer, std::uint64_t batch_id,
                                        std::string_view line) {
  std::vector<std::uint64_t> entries = std::move(p.batches[batch_id]);
  p.batches.erase(batch_id);
  note_batch_pace(p, entries);
  const json::Value* answers = answer.find("answers");
  if (answers == nullptr || !answers->is_array()) {
    const json::Value* error = answer.find("error");
    if (error != nullptr && error->is_string() && answers == nullptr) {
      // Refused (too many entries, most likely): nobody's fault; smaller batches from now on.
      p.batch_cap = std::max<std::size_t>(1, entries.size() / 2);
      p.batch_limit = std::min(p.batch_limit, p.batch_cap);
      for (auto id = entries.rbegin(); id != entries.rend(); ++id) {
        auto it = p.in_flight.find(*id);
        if (it == p.in_flight.end()) continue;
        pending.push_front(it->second.slot);
        p.in_flight.erase(it);
      }
      p.last_progress = Clock::now();
      return;
    }
    fail(p, std::nullopt, Outcome::kProtocol,
         "answer to batch " + std::to_string(batch_id) +
             " has no \"answers\" array: " + protocol::excerpt(line),
         false);
    return;
  }
  std::uint64_t generation = p.generation;
  const auto& items = answers->items();
  std::size_t line_hash = std::hash<std::string_view>{}(line);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    bool has_id = false;
    std::uint64_t got = 0;
    if (i < items.size()) {
      if (auto answer_id = protocol::answer_id(items[i])) {
        has_id = true;
        got = *answer_id;
      }
    }
    if (i >= items.size() || !has_id || got != entries[i]) {
      std::string why = "batch " + std::to_string(batch_id) + " answer ";
      why += i >= items.size() ? "has " + std::to_string(items.size()) + " answers for " +
                                     std::to_string(entries.size()) + " requests"
                               : "#" + std::to_string(i) + " has id " +
                                     (has_id ? std::to_string(got) : std::string("(none)")) + ", expected " +
                                     std::to_string(entries[i]);
      // Every entry left unanswered gets the protocol result; the first is the one fail() charges.
      std::optional<std::size_t> first;
      for (std::size_t k = i; k < entries.size(); ++k) {
        auto it = p.in_flight.find(entries[k]);
        if (it == p.in_flight.end()) continue;
        if (!first) {
          first = it->second.slot;
          continue;
        }
        if (it->second.slot != kCanary) {
          finish(it->second.slot, Outcome::kProtocol,
                 why + " (request " + std::to_string(entries[k]) + " unanswered)", "",
                 millis(Clock::now() - it->second.sent));
        }
        p.in_flight.erase(it);
      }
      fail(p, first, Outcome::kProtocol, why, first.has_value());
      return;
    }
    on_entry(p, items[i], entries[i], line_hash + i, line);
    if (p.generation != generation) return;
  }
  if (items.size() > entries.size()) {
    fail(p, std::nullopt, Outcome::kProtocol,
         "batch " + std::to_string(batch_id) + " answer has " + std::to_string(items.size()) +
             " answers for " + std::to_string(entries.size()) + " requests",
         false);
  }
}

void AdapterPool::Impl::on_entry(Proc& p, const json::Value& answer, std::uint64_t id_value, std::size_t hash,
                                 std::string_view line) {
  std::optional<std::uint64_t> id = id_value;
  auto it = p.in_flight.find(*id);
  if (it == p.in_flight.end()) {
    auto twice = p.answered.find(*id);
    if (twice == p.answered.end()) {
      fail(p, std::nullopt, Outcome::kProtocol,
           "answer for unknown id " + std::to_string(*id) + ": " + protocol::excerpt(line));
      return;
    }
    std::string why = "answered request " + std::to_string(*id) + " twice";
    const Answered first = twice->second;
    if (first.hash == hash || p.in_flight.empty()) {  // the same answer again: that request's fault
      fail(p, first.slot, Outcome::kProtocol, why);
    } else if (p.in_flight.size() == 1) {  // another answer, and only one request could have sent it
      fail(p, p.in_flight.begin()->second.slot, Outcome::kProtocol,
           "answered with the id of request " + std::to_string(*id) +
               ", answered before: " + protocol::excerpt(line));
    } else {
      // Another request's answer under this id, or this request's second opinion: no telling
      // which. The first answer is set aside (unless it came from a lone retry) and everything
      // is retried alone, where a failure names its request.
      Slot& answered = slot(first.slot);
      if (!answered.retried) {
        mark_done(first.slot, false);
        answered.retried = true;
        p.in_flight[*id] = InFlight{first.slot, Clock::now(), options.deadline, false};
      }
      fail(p, std::nullopt, Outcome::kProtocol, why + " (with different content)", false);
    }
    return;
  }
  const InFlight f = it->second;
  auto now = Clock::now();
  (void)line;
  if (f.slot == kCanary) {
    auto result = protocol::parse_decode_answer(answer);
    if (!result.ok()) {
      fail(p, kCanary, Outcome::kProtocol,
           "answer to request " + std::to_string(*id) + ": " + result.error());
      return;
    }
    p.in_flight.erase(it);
    p.failures_in_a_row = 0;
    p.probation = false;
    p.last_progress = now;
    return;
  }
  Slot& s = slot(f.slot);
  if (s.kind == Kind::kDecode) {
    auto result = protocol::parse_decode_answer(answer);
    if (!result.ok()) {
      fail(p, f.slot, Outcome::kProtocol, "answer to request " + std::to_string(*id) + ": " + result.error());
      return;
    }
    s.result = std::move(result).value();
    s.result.implementation = spec.name;
    s.result.millis = millis(now - f.sent);
  } else if (s.kind == Kind::kValidate) {
    auto verdict = protocol::parse_validate_answer(answer);
    if (!verdict.ok()) {
      fail(p, f.slot, Outcome::kProtocol,
           "answer to validate " + std::to_string(*id) + ": " + verdict.error());
      return;
    }
    s.verdict = std::move(verdict).value();
    s.verdict->implementation = spec.name;
    s.verdict->millis = millis(now - f.sent);
  } else {
    auto nanos = protocol::parse_bench_answer(answer);
    if (!nanos.ok()) {
      fail(p, f.slot, Outcome::kProtocol, "answer to bench " + std::to_string(*id) + ": " + nanos.error());
      return;
    }
    s.nanos = nanos.value();
  }
  mark_done(f.slot, true);
  p.in_flight.erase(it);
  p.answered[*id] = Answered{f.slot, hash};
  // A line of its own (a retry after a batch failed, say) shows the pace as a batch does.
  if (f.batch == 0 && s.kind != Kind::kBench) note_pace(p, f.sent, 1);
  p.last_progress = now;
  p.failures_in_a_row = 0;
  p.probation = false;
  if (s.kind == Kind::kDecode &&
      (!good_slot || s.request->input.size() < slot(*good_slot).request->input.size())) {
    good_slot = f.slot;
  }
}

}  // namespace crosscheck::exec
