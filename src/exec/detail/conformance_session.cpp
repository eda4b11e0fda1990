// conformance_session.cpp: a session of the conformance suite (one raw adapter process) and the reading
// of answers the checks share (conformance_session.hpp).
#include "exec/detail/conformance_session.hpp"

#include <poll.h>

#include <algorithm>

#include "exec/protocol_codec.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"

namespace crosscheck::exec::conformance::detail {

using core::ImplResult;
using core::outcome_name;
using json::Value;

Result<std::unique_ptr<Session>, std::string> Session::spawn(const AdapterSpec& spec, const Options& o) {
  auto p = AdapterProcess::spawn(spec, o.stderr_tail_bytes);
  if (!p.ok()) return p.error();
  auto s = std::unique_ptr<Session>(new Session());
  s->p_ = std::move(p).value();
  return s;
}

Session::Status Session::next(std::string& line, milliseconds wait) {
  auto until = Clock::now() + wait;
  for (;;) {
    while (!lines_.empty()) {
      line = std::move(lines_.front());
      lines_.pop_front();
      if (line.find_first_not_of(" \t\r") != std::string::npos) return Status::kLine;
    }
    if (overlong_) return Status::kOverlong;
    if (eof_) return Status::kEof;
    if (stop_requested()) return Status::kStopped;
    auto left = until - Clock::now();
    if (left <= Clock::duration::zero()) return Status::kTimeout;
    pollfd fds[3];
    nfds_t n = 0;
    fds[n++] = {p_->stdout_fd(), POLLIN, 0};
    if (p_->stderr_fd() >= 0) fds[n++] = {p_->stderr_fd(), POLLIN, 0};
    if (p_->wants_write()) fds[n++] = {p_->stdin_fd(), POLLOUT, 0};
    auto timeout = std::min<long long>(std::chrono::ceil<milliseconds>(left).count(), 250);
    int ready = ::poll(fds, n, static_cast<int>(timeout));
    p_->drain_stderr();
    if (p_->wants_write()) p_->flush();
    std::vector<std::string> got;
    auto status = p_->read_lines(got, kMaxLine);
    for (auto& g : got) lines_.push_back(std::move(g));
    if (status == AdapterProcess::ReadStatus::kEof) eof_ = true;
    if (status == AdapterProcess::ReadStatus::kOverlong) overlong_ = true;
    // A child whose helper still holds stdout never shows EOF: notice its exit instead.
    if (ready == 0 && got.empty() && p_->has_exited()) eof_ = true;
  }
}

std::string Session::failure(Status status, const std::string& what, milliseconds wait) {
  std::string why;
  switch (status) {
    case Status::kEof: {
      bool exited = p_->wait_exit(milliseconds(500));
      p_->drain_stderr();
      std::string partial = p_->partial_line();
      p_->kill();
      why = "the adapter died while waiting for " + what + " (" +
            (exited ? p_->status_text() : "closed its stdout, then " + p_->status_text()) + ")";
      if (!partial.empty()) why += "; unterminated last line: " + protocol::excerpt(partial);
      break;
    }
    case Status::kTimeout:
      why = "nothing came within " + seconds_text(wait) + " while waiting for " + what;
      break;
    case Status::kOverlong:
      why = "a line longer than 64 MiB while waiting for " + what + ": " +
            protocol::excerpt(p_->overlong_prefix(), 60);
      break;
    case Status::kStopped:
      why = "interrupted";
      break;
    case Status::kLine:
      break;
  }
  end();
  return why;
}

std::string seconds_text(milliseconds d) {
  return d.count() % 1000 == 0 ? std::to_string(d.count() / 1000) + " s" : std::to_string(d.count()) + " ms";
}

long long elapsed_ms(Clock::time_point since) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - since).count();
}

Result<std::pair<std::unique_ptr<Session>, std::string>, Failure> open(const AdapterSpec& spec,
                                                                       const Options& o,
                                                                       const std::string& hello) {
  auto spawned = Session::spawn(spec, o);
  if (!spawned.ok()) return Failure{spawned.error(), ""};
  auto s = std::move(spawned).value();
  s->send(hello);
  std::string line;
  Status status = s->next(line, o.hello_deadline);
  if (status != Status::kLine) {
    std::string why = s->failure(status, "the hello answer", o.hello_deadline);
    return Failure{why, s->tail()};
  }
  return std::make_pair(std::move(s), std::move(line));
}

std::string quoted(std::string_view text) { return json::quote(text); }

std::string decode_line(std::uint64_t id, std::string_view root, std::string_view base64_text) {
  return "{\"op\":\"decode\",\"id\":" + std::to_string(id) + ",\"root\":" + quoted(root) + ",\"input\":\"" +
         std::string(base64_text) + "\"}\n";
}

std::optional<Value> parse_line(const std::string& line, std::string& why) {
  json::ParseLimits limits;
  limits.max_bytes = kMaxLine;
  auto parsed = json::parse(line, limits);
  if (!parsed.ok()) {
    why = "a line that is not JSON (" + parsed.error().message() + "): " + protocol::excerpt(line);
    return std::nullopt;
  }
  if (!parsed.value().is_object()) {
    why = "a line that is not a JSON object: " + protocol::excerpt(line);
    return std::nullopt;
  }
  return std::move(parsed).value();
}

std::string outcome_text(const ImplResult& r) {
  std::string text = outcome_name(r.outcome);
  if (r.message) text += " (message " + quoted(*r.message) + ")";
  return text;
}

std::optional<std::string> collect(Session& s, const Context& c, const std::set<std::uint64_t>& ids,
                                   std::size_t nulls, Collected& out, const std::string& what) {
  while (out.by_id.size() < ids.size() || out.null_id.size() < nulls) {
    std::string line;
    Status status = s.next(line, c.o.deadline);
    if (status != Status::kLine) return s.failure(status, what, c.o.deadline);
    std::string why;
    auto answer = parse_line(line, why);
    if (!answer) return "got " + why;
    const Value* id = answer->find("id");
    if (id != nullptr && id->is_null()) {
      if (out.null_id.size() >= nulls)
        return "an answer with id null, to no request that lacked an id: " + protocol::excerpt(line);
      out.null_id.push_back(std::move(*answer));
      continue;
    }
    auto n = protocol::answer_id(*answer);
    if (!n) return "an answer without an integer id: " + protocol::excerpt(line);
    if (!ids.count(*n))
      return "an answer for id " + std::to_string(*n) + ", which no request had: " + protocol::excerpt(line);
    if (out.by_id.count(*n))
      return "a second answer for id " + std::to_string(*n) + ": " + protocol::excerpt(line);
    out.by_id.emplace(*n, std::move(*answer));
    out.order.push_back(*n);
  }
  return std::nullopt;
}

Result<ImplResult, std::string> decode_answer(const Value& answer, std::uint64_t id) {
  std::string which = id == kNoId ? std::string("an id-null answer") : "answer to id " + std::to_string(id);
  if (auto problem = protocol::schema_problem(protocol::Line::kDecodeAnswer, answer))
    return which + " breaks its schema " + *problem;
  auto r = protocol::parse_decode_answer(answer);
  if (!r.ok()) return which + ": " + r.error();
  return r;
}

std::optional<std::string> encoded_problem(const ImplResult& r) {
  if (!r.encoded) return std::nullopt;
  json::ParseLimits limits;
  limits.max_bytes = kMaxLine;
  auto text = json::parse(*r.encoded, limits);
  if (text.ok()) return std::nullopt;
  return "\"encoded\" is not JSON text (" + text.error().message() + "): " + protocol::excerpt(*r.encoded);
}

Result<ImplResult, std::string> ask(Session& s, Context& c, std::string_view root,
                                    std::string_view base64_text, const std::string& what) {
  std::uint64_t id = c.next_id++;
  s.send(decode_line(id, root, base64_text));
  Collected got;
  if (auto why = collect(s, c, {id}, 0, got, "the answer to " + what)) return *why;
  return decode_answer(got.by_id.at(id), id);
}

std::optional<std::string> follow_up(Session& s, Context& c) {
  auto r = ask(s, c, c.root, base64_encode(c.valid_input), "a follow-up request");
  if (!r.ok()) return "after the check: " + r.error();
  return std::nullopt;
}

CheckResult pass(std::string name, std::string detail) {
  return {std::move(name), true, std::move(detail), ""};
}
CheckResult fail(std::string name, std::string detail) {
  return {std::move(name), false, std::move(detail), ""};
}

}  // namespace crosscheck::exec::conformance::detail
