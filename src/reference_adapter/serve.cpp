// serve.cpp: the reference adapter's loop (reference_adapter.hpp). Lines in the exact layout
// exec/protocol_codec writes (decode and validate requests, and batches of them) are read in place
// (detail/request_layout); every other line goes through the lossless parser
// (detail/parsed_requests). Every answer is written as text into one buffer per line
// (detail/answer_text) and sent in one write.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "decoder/decoder.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "reference_adapter/detail/answer_text.hpp"
#include "reference_adapter/detail/parsed_requests.hpp"
#include "reference_adapter/detail/request_layout.hpp"
#include "reference_adapter/reference_adapter.hpp"

namespace crosscheck::reference_adapter {

using namespace detail;
using json::Value;

namespace {

// Lines of stdin, read in large blocks and handed out in place (std::getline copied each one). The
// last line need not end in '\n'. A line is valid until the next call.
class LineReader {
 public:
  bool next(std::string_view& line) {
    for (;;) {
      if (const void* nl = std::memchr(buf_.data() + scanned_, '\n', end_ - scanned_)) {
        auto at = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data());
        line = std::string_view(buf_.data() + start_, at - start_);
        start_ = scanned_ = at + 1;
        return true;
      }
      scanned_ = end_;
      if (eof_) {
        if (start_ == end_) return false;
        line = std::string_view(buf_.data() + start_, end_ - start_);
        start_ = scanned_ = end_;
        return true;
      }
      if (start_ > 0) {  // keep the partial line at the front
        std::memmove(buf_.data(), buf_.data() + start_, end_ - start_);
        end_ -= start_;
        scanned_ -= start_;
        start_ = 0;
      }
      if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
      ssize_t n = ::read(STDIN_FILENO, buf_.data() + end_, buf_.size() - end_);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        eof_ = true;
      } else {
        end_ += static_cast<std::size_t>(n);
      }
    }
  }

 private:
  std::string buf_ = std::string(std::size_t{1} << 16, '\0');
  std::size_t start_ = 0, scanned_ = 0, end_ = 0;
  bool eof_ = false;
};

// One write for the whole line (an answer, or a batch's answers), and no flush to wait for.
void send(std::string& out) {
  out += '\n';
  const char* p = out.data();
  std::size_t left = out.size();
  while (left > 0) {
    ssize_t n = ::write(STDOUT_FILENO, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the harness is gone; reading on ends at its EOF
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  out.clear();
}

}  // namespace

int serve(const schema::Ir& ir, bool echo_input) {
  decoder::Decoder decoder(ir);
  Engine engine{decoder, echo_input};
  LineReader reader;
  std::string out;
  std::vector<RequestLayout::Entry> entries;
  auto answer_entry = [&](const RequestLayout::Entry& e) {
    if (e.op == RequestLayout::Op::kDecode) {
      append_decode(out, ir, engine, e.id, e.name, e.input);
    } else {
      append_validate(out, ir, e.id, e.name, e.input);
    }
  };
  std::string_view line;
  while (reader.next(line)) {
    if (auto e = RequestLayout(line).single()) {
      answer_entry(*e);
      send(out);
      continue;
    }
    if (std::string_view batch_id; RequestLayout(line).batch(batch_id, entries)) {
      append_batch(out, batch_id, entries.size(), [&](std::size_t i) { answer_entry(entries[i]); });
      send(out);
      continue;
    }
    auto request = json::parse(line);
    if (!request.ok() || !request.value().is_object()) {
      append_error(
          out, "null",
          "bad request: " + (request.ok() ? std::string("not an object") : request.error().message()));
      send(out);
      continue;
    }
    const Value& req = request.value();
    const Value* op = req.find("op");
    std::string op_name = op && op->is_string() ? op->string_value() : "";
    if (op_name == "hello") {
      const Value* protocol = req.find("protocol");
      if (!protocol || !protocol->is_number() || protocol->number_text() != "1") {
        Value a = Value::object();
        a.add("op", Value::string("hello"));
        a.add("protocol", Value::number("1"));
        a.add("error",
              Value::string("unsupported protocol " + (protocol ? json::write(*protocol) : "(none)")));
        out = json::write(a);
        send(out);
        return 2;
      }
      out = json::write(hello_answer(ir, echo_input));
      send(out);
      continue;
    }
    if (op_name == "shutdown") return 0;
    if (op_name == "batch") {
      answer_batch(out, ir, engine, req);
    } else {
      answer_request(out, ir, engine, req);
    }
    send(out);
  }
  return 0;
}

}  // namespace crosscheck::reference_adapter
