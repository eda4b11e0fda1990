// command_serve_adapter.cpp: `crosscheck serve-adapter`, the C++ decoder behind adapter protocol v1
// (docs/protocol.md). It is the `cpp` entry of adapters/default.json, and how the adapter pool is
// tested end to end against a real implementation.
//
// Per-request cost (docs/benchmarks.md, bench_adapters): the decode itself is a few microseconds, so
// a JSON tree of each request (with its base64 member copied into it) and of each answer cost as much
// again. Lines in the exact layout exec/protocol_codec writes (decode and validate requests,
// and batches of them) are therefore read in place, without a tree (RequestLayout); every other line
// goes through the lossless parser as before. Every answer is written as text into one buffer per
// line, with the same bytes json::write gave for the trees it replaces.
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.hpp"
#include "cli/schema_option.hpp"
#include "core/impl_result.hpp"
#include "decoder/decoder.hpp"
#include "exec/reference_validation.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::cli {
namespace {

using json::Value;

// Entries per batch line (the batch op, docs/protocol.md); a longer batch is refused.
constexpr std::size_t kBatchMax = 256;

// ---- answers as text ------------------------------------------------------------------------

// A JSON string literal for `s`: printable ASCII but '"' and '\\' as it is (what json::write does
// with it too), anything else through json::quote.
void append_string(std::string& out, std::string_view s) {
  bool plain = std::all_of(s.begin(), s.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7f && c != '"' && c != '\\';
  });
  if (!plain) {
    out += json::quote(s);
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

// A decode-style answer without a result: outcome "error" (a bad request) or "unsupported". `id` is
// the JSON text of the answer's id ("null" when the request has none to echo).
void append_error(std::string& out, std::string_view id, std::string_view message,
                  std::string_view outcome = "error") {
  out += "{\"id\":";
  out += id;
  out += ",\"outcome\":\"";
  out += outcome;
  out += "\",\"diagnostics\":[],\"encoded\":null,\"encodeError\":null,\"message\":";
  append_string(out, message);
  out += '}';
}

// A batch's answer line: `answer(i)` appends the answer to entry i, in order.
template <class AnswerEntry>
void append_batch(std::string& out, std::string_view id, std::size_t entries, AnswerEntry answer) {
  out += "{\"id\":";
  out += id;
  out += ",\"answers\":[";
  for (std::size_t i = 0; i < entries; ++i) {
    if (i > 0) out += ',';
    answer(i);
  }
  out += "]}";
}

std::string id_text(const Value* id) { return id ? json::write(*id) : std::string("null"); }

// What answers decodes. `echo_input` (serve-adapter --echo-input) skips the decoder: every decode is
// answered "accepted" with its input as the encoding, so that bench_adapters can measure what the
// protocol alone costs both processes (bench/README.md, "the protocol's floor"). Its answers mean
// nothing; its hello names it "cpp-echo" (not the reference's name), and no adapter configuration the
// project ships selects it.
struct Engine {
  decoder::Decoder& decoder;
  bool echo_input = false;
};

// A decode of `input` (base64 text) as root `root_name`.
void append_decode(std::string& out, const schema::Ir& ir, Engine& engine, std::string_view id,
                   std::string_view root_name, std::string_view input) {
  const schema::Root* root = ir.find_root(root_name);
  // An unknown root is "unsupported" whatever the input: the answer must not depend on the order
  // in which the request's faults are checked (the SDK adapters check the root first too).
  if (!root) return append_error(out, id, "no root named " + std::string(root_name), "unsupported");
  auto bytes = base64_decode(input);
  if (!bytes) return append_error(out, id, "invalid base64");
  decoder::DecodeResult result;
  if (engine.echo_input) {
    result.accepted = true;
    result.encoded = std::move(*bytes);
  } else {
    result = engine.decoder.decode(*root, *bytes);
  }
  out += "{\"id\":";
  out += id;
  out += result.accepted ? ",\"outcome\":\"accepted\",\"diagnostics\":["
                         : ",\"outcome\":\"rejected\",\"diagnostics\":[";
  for (std::size_t i = 0; i < result.diagnostics.size(); ++i) {
    const decoder::Diagnostic& d = result.diagnostics[i];
    out += i == 0 ? "{\"path\":" : ",{\"path\":";
    append_string(out, d.path);
    out += ",\"code\":";
    append_string(out, d.code);
    out += ",\"severity\":";
    append_string(out, decoder::severity_name(d.severity));
    out += '}';
  }
  out += "],\"encoded\":";
  if (result.encoded) {
    out += '"';
    base64_encode_to(out, *result.encoded);
    out += '"';
  } else {
    out += "null";
  }
  out += ",\"encodeError\":null,\"message\":null}";
}

// Each error carries the failed keyword too (optional in the protocol): the self-test's faulty
// proxy emulates a validator that skips one keyword from it (selftest/faulty_adapter.py).
void append_verdict(std::string& out, std::string_view id, const char* outcome,
                    const std::vector<std::string>& paths, const std::vector<std::string>& keywords,
                    const std::optional<std::string>& message) {
  out += "{\"id\":";
  out += id;
  out += ",\"outcome\":\"";
  out += outcome;
  out += "\",\"errors\":[";
  for (std::size_t i = 0; i < paths.size(); ++i) {
    out += i == 0 ? "{\"path\":" : ",{\"path\":";
    append_string(out, paths[i]);
    if (i < keywords.size()) {
      out += ",\"keyword\":";
      append_string(out, keywords[i]);
    }
    out += '}';
  }
  out += "],\"message\":";
  if (message) {
    append_string(out, *message);
  } else {
    out += "null";
  }
  out += '}';
}

// The validate op (layer 2): the reference's verdict through exec::validate_reference.
void append_validate(std::string& out, const schema::Ir& ir, std::string_view id, std::string_view document,
                     std::string_view input) {
  auto bytes = base64_decode(input);
  if (!bytes) return append_verdict(out, id, "error", {}, {}, std::string("invalid base64"));
  core::ValidateResult r = exec::validate_reference(ir, document, *bytes);
  append_verdict(out, id, core::verdict_name(r.verdict), r.error_paths, r.error_keywords, r.message);
}

// ---- requests in protocol_codec's layout, read in place --------------------------------------

// The request lines exec::protocol writes, byte for byte:
//   {"op":"decode","id":N,"root":"R","input":"B"}   {"op":"validate","id":N,"document":"D","input":"B"}
//   {"op":"batch","id":N,"requests":[E,E,...]}       (E: one of the two above)
// with N a JSON integer literal without sign, and R, D, B strings of printable ASCII without
// escapes. Text in this layout means exactly one thing (distinct keys, each string's value is its
// text), so it is answered from views into the line; anything else, however slightly off (a
// space, another key order, an escape, a duplicate key), goes to the lossless parser.
class RequestLayout {
 public:
  enum class Op { kDecode, kValidate };
  struct Entry {
    Op op;
    std::string_view id, name, input;  // name: the root or the document
  };

  explicit RequestLayout(std::string_view line) : s_(line) {}

  /// One decode or validate request, the whole line.
  std::optional<Entry> single() {
    Entry e;
    if (!entry(e) || i_ != s_.size()) return std::nullopt;
    return e;
  }

  /// A batch of 1 to kBatchMax such entries, the whole line (any other count goes to the parser,
  /// which refuses it with the usual message). Entries go into `entries`.
  bool batch(std::string_view& id, std::vector<Entry>& entries) {
    entries.clear();
    if (!literal("{\"op\":\"batch\",\"id\":") || !integer(id) || !literal(",\"requests\":[")) return false;
    do {
      Entry e;
      if (entries.size() == kBatchMax || !entry(e)) return false;
      entries.push_back(e);
    } while (literal(","));
    return literal("]}") && i_ == s_.size();
  }

 private:
  bool entry(Entry& e) {
    if (!literal("{\"op\":\"")) return false;
    std::string_view member;
    if (literal("decode\",\"id\":")) {
      e.op = Op::kDecode;
      member = ",\"root\":\"";
    } else if (literal("validate\",\"id\":")) {
      e.op = Op::kValidate;
      member = ",\"document\":\"";
    } else {
      return false;
    }
    return integer(e.id) && literal(member) && plain(e.name) && literal(",\"input\":\"") && plain(e.input) &&
           literal("}");
  }
  bool literal(std::string_view text) {
    if (s_.compare(i_, text.size(), text) != 0) return false;
    i_ += text.size();
    return true;
  }
  // 0 or [1-9][0-9]*, as the request spells it.
  bool integer(std::string_view& out) {
    std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    if (i_ == start || (s_[start] == '0' && i_ - start > 1)) return false;
    out = s_.substr(start, i_ - start);
    return true;
  }
  // The rest of a string whose opening quote was matched: printable ASCII, no '\\', up to '"'.
  // memchr finds the quote, then SSE2 checks the span 16 bytes at a time (a loop with a branch per
  // character was a sixth of serve-adapter's own time per decode, on inputs of 1-2 KB base64).
  bool plain(std::string_view& out) {
    const char* begin = s_.data() + i_;
    const auto* quote = static_cast<const char*>(std::memchr(begin, '"', s_.size() - i_));
    if (!quote || !printable_without_escapes(begin, quote)) return false;
    out = std::string_view(begin, static_cast<std::size_t>(quote - begin));
    i_ += out.size() + 1;
    return true;
  }
  static bool printable_without_escapes(const char* p, const char* end) {
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f), backslash = _mm_set1_epi8('\\');
    for (; end - p >= 16; p += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      // Signed bytes: below 0x20 or at 0x80 and above are both less than 0x20.
      __m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, space),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, del), _mm_cmpeq_epi8(v, backslash)));
      if (_mm_movemask_epi8(bad) != 0) return false;
    }
#endif
    for (; p != end; ++p) {
      auto c = static_cast<unsigned char>(*p);
      if (c < 0x20 || c >= 0x7f || c == '\\') return false;
    }
    return true;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

// ---- requests through the lossless parser ------------------------------------------------------

Value hello_answer(const schema::Ir& ir, bool echo_input) {
  Value impl = Value::object();
  impl.add("name", Value::string(echo_input ? "cpp-echo" : std::string(verdict::kReferenceImplementation)));
  impl.add("language", Value::string("c++"));
  impl.add("version", Value::string(CROSSCHECK_VERSION));
  impl.add("languageVersion", Value::string(__VERSION__));
  impl.add("os", Value::string("linux"));
  Value a = Value::object();
  a.add("op", Value::string("hello"));
  a.add("protocol", Value::number("1"));
  a.add("implementation", std::move(impl));
  a.add("lock", ir.lock ? *ir.lock : Value::null());
  a.add("schemaBundle", Value::string(ir.source_path));
  Value roots = Value::array();
  for (const auto& r : ir.roots) roots.push(Value::string(r.snake_name));
  a.add("roots", std::move(roots));
  Value layers = Value::array();
  for (const auto& l : exec::reference_layers()) {
    if (!echo_input || l == "structural") layers.push(Value::string(l));
  }
  a.add("layers", std::move(layers));
  Value batch = Value::object();
  batch.add("max", Value::number(std::to_string(kBatchMax)));
  a.add("batch", std::move(batch));
  return a;
}

void validate_request(std::string& out, const schema::Ir& ir, const Value& req) {
  const Value* id = req.find("id");
  const Value* document = req.find("document");
  const Value* input = req.find("input");
  bool id_ok =
      id && id->is_number() && id->number_text().find_first_not_of("0123456789") == std::string::npos;
  if (!id_ok || !document || !document->is_string() || !input || !input->is_string()) {
    return append_verdict(
        out, id_ok ? id->number_text() : "null", "error", {}, {},
        std::string("bad request: validate needs an integer id, a document and a base64 input"));
  }
  append_validate(out, ir, id->number_text(), document->string_value(), input->string_value());
}

// The answer to one decode, bench, validate or unknown-op request object.
void answer_request(std::string& out, const schema::Ir& ir, Engine& engine, const Value& req) {
  const Value* op = req.find("op");
  const Value* id = req.find("id");
  std::string op_name = op && op->is_string() ? op->string_value() : "";
  if (op_name == "validate") return validate_request(out, ir, req);
  if (op_name != "decode" && op_name != "bench")
    return append_error(out, id_text(id), "bad request: unknown op '" + op_name + "'");
  const Value* root_name = req.find("root");
  const Value* input = req.find("input");
  if (!id || !id->is_number() || !root_name || !root_name->is_string() || !input || !input->is_string()) {
    return append_error(out, id_text(id),
                        "bad request: decode needs an integer id, a root and a base64 input");
  }
  if (op_name == "decode")
    return append_decode(out, ir, engine, id_text(id), root_name->string_value(), input->string_value());
  auto bytes = base64_decode(input->string_value());
  const schema::Root* root = ir.find_root(root_name->string_value());
  const Value* iterations = req.find("iterations");
  unsigned long long n = iterations && iterations->is_number() ? std::stoull(iterations->number_text()) : 1;
  if (!bytes || !root) return append_error(out, id_text(id), !bytes ? "invalid base64" : "unsupported root");
  auto start = std::chrono::steady_clock::now();
  for (unsigned long long i = 0; i < n; ++i) engine.decoder.decode(*root, *bytes);
  auto nanos =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  out += "{\"id\":" + id_text(id) + ",\"nanos\":" + std::to_string(nanos) + "}";
}

// The batch op: one answer per entry, in order, in one line; a bad entry is answered as a bad request.
void answer_batch(std::string& out, const schema::Ir& ir, Engine& engine, const Value& req) {
  const Value* id = req.find("id");
  const Value* entries = req.find("requests");
  const std::string batch_id = id && id->is_number() ? id_text(id) : "null";
  if (!entries || !entries->is_array() || entries->items().empty()) {
    out += "{\"id\":" + batch_id + ",\"error\":\"bad batch: requests must be a non-empty array\"}";
    return;
  }
  if (entries->items().size() > kBatchMax) {
    out += "{\"id\":" + batch_id + ",\"error\":";
    append_string(out, "bad batch: " + std::to_string(entries->items().size()) + " requests, at most " +
                           std::to_string(kBatchMax));
    out += '}';
    return;
  }
  append_batch(out, batch_id, entries->items().size(), [&](std::size_t i) {
    const Value& entry = entries->items()[i];
    const Value* op = entry.is_object() ? entry.find("op") : nullptr;
    bool known =
        op && op->is_string() && (op->string_value() == "decode" || op->string_value() == "validate");
    if (!known) {
      const Value* entry_id = entry.is_object() ? entry.find("id") : nullptr;
      return append_error(out, entry_id && entry_id->is_number() ? id_text(entry_id) : "null",
                          "bad request: a batch entry is a decode or validate request object");
    }
    answer_request(out, ir, engine, entry);
  });
}

// ---- the loop ----------------------------------------------------------------------------------

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

int serve(const std::string& schema_path, bool echo_input) {
  schema::Ir ir = load_ir_or_fail(schema_path);
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

const Registration kServeAdapter{CommandSpec{
    "serve-adapter", "Serve the C++ decoder over adapter protocol v1 on stdin/stdout (the 'cpp' adapter)",
    "  printf '%s\\n' '{\"op\":\"hello\",\"protocol\":1}' | crosscheck serve-adapter\n"
    "  crosscheck serve-adapter --schema path/to/schemas.json",
    [](CLI::App& sub) {
      auto schema = std::make_shared<std::string>();
      auto echo_input = std::make_shared<bool>(false);
      sub.add_option("--schema", *schema, "Schema folder (with manifest.json) or SDK schemas.json bundle");
      sub.add_flag("--echo-input", *echo_input,
                   "Benchmarks only: answer every decode 'accepted' with its input as the encoding, without "
                   "decoding (what the protocol alone costs; bench/README.md). Not an implementation");
      return [schema, echo_input] { return serve(*schema, *echo_input); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
