// bench_decoder: the C++ structural decoder on real-schema payloads.
//
// Prints decode + re-encode throughput (MB and documents per CPU second) on one core over the payloads
// given (default: corpus/examples and bench/payloads, 1-4 KB AHP messages) beside simdjson's DOM parse
// of the same bytes in interleaved rounds of the same run; then where a decode's time goes, in CPU
// microseconds per KB from the same rounds (json::parse alone, json::write alone on the trees the
// decoder writes, and the check as what is left of the decode), beside the budget a decode "within
// 7x of simdjson" would have; then the peak memory of decoding a 1 MB payload: resident set before
// and after (getrusage ru_maxrss), so the decoder's own share is visible.
// Usage: bench_decoder [--schema PATH] [root:payload.json ...]
#include <simdjson.h>
#include <sys/resource.h>
#include <time.h>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_schema.hpp"
#include "bench/bench_support.hpp"
#include "decoder/decoder.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "schema/loader.hpp"

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// CPU time of this thread (not the wall clock: other jobs share the machine).
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

long max_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/// The corpus's tool.before intercept_request with ~`bytes` of varied JSON in its opaque tool input:
/// the shape a large real message has (a big file read, a long command output).
std::string big_request(std::size_t bytes) {
  std::string base =
      read_file(std::string(CROSSCHECK_SOURCE_DIR) + "/corpus/examples/intercept_request.tool-before.json");
  std::string items;
  for (std::size_t i = 0; items.size() < bytes; ++i) {
    if (!items.empty()) items += ",";
    items += "{\"line\":" + std::to_string(i) + ",\"text\":\"caf\\u00e9 line " + std::to_string(i) +
             "\",\"ok\":true,\"ratio\":0." + std::to_string(i % 97) + ",\"tags\":[\"a\",\"b\",null]}";
  }
  const std::string anchor = "\"input\": {";
  auto at = base.find(anchor);
  if (at == std::string::npos) return base;
  return base.insert(at + anchor.size(), "\"lines\": [" + items + "],");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace crosscheck;
  std::string schema_path;
  std::vector<std::pair<std::string, std::string>> docs;  // root, bytes
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--schema" && i + 1 < argc) {
      schema_path = argv[++i];
    } else {
      auto colon = a.find(':');
      if (colon == std::string::npos) {
        std::cerr << "ERROR: expected root:payload.json, got " << a << "\n";
        return 2;
      }
      docs.emplace_back(a.substr(0, colon), read_file(a.substr(colon + 1)));
    }
  }
  auto ir = bench::load_bench_schema(schema_path);
  if (!ir) return 2;
  if (docs.empty()) {
    for (const char* dir : {"/corpus/examples", "/bench/payloads"}) {
      for (const auto& e : std::filesystem::directory_iterator(std::string(CROSSCHECK_SOURCE_DIR) + dir)) {
        std::string name = e.path().filename().string();
        docs.emplace_back(name.substr(0, name.find('.')), read_file(e.path()));
      }
    }
  }
  decoder::Decoder dec(ir.value());
  std::vector<std::pair<const schema::Root*, const std::string*>> work;
  std::size_t bytes = 0;
  for (const auto& [root, text] : docs) {
    const schema::Root* r = ir->find_root(root);
    if (!r) {
      std::cerr << "ERROR: unknown root " << root << "\n";
      return 2;
    }
    work.emplace_back(r, &text);
    bytes += text.size();
  }
  // The stage rounds parse as the decoder does (its limits, the compact text beside the tree), and
  // write the trees the decoder writes: those of the payloads it accepts whose compact text parse
  // withheld. Each pass is charged the bytes of the whole mix, as the decode is.
  const json::ParseLimits limits = decoder::DecodeOptions{}.limits;
  std::size_t accepted = 0, written = 0;
  std::vector<std::optional<json::Value>> trees;  // nullopt: the decoder writes no text for the payload
  for (const auto& [r, t] : work) {
    bool ok = dec.decode(*r, *t).accepted;
    accepted += ok;
    std::string compact;
    json::Value tree = json::parse(*t, limits, &compact).value();
    bool writes = ok && compact.empty();
    written += writes;
    trees.push_back(writes ? std::optional<json::Value>(std::move(tree)) : std::nullopt);
  }
  json::WriteOptions write_options;  // as the decoder re-encodes
  write_options.collapse_duplicates = true;
  simdjson::dom::parser dom;
  volatile std::size_t sink = 0;
  // Interleaved rounds of ~50 ms, timed in CPU seconds of this thread: load elsewhere on a shared
  // machine slows all alike, so the ratios hold even when the absolute figures wobble. A pass is one
  // sweep over the mix.
  struct Timed {
    double seconds = 0;
    std::size_t passes = 0;
  };
  auto round_of = [](Timed& timed, auto&& pass) {
    double start = thread_cpu_seconds();
    do {
      pass();
      ++timed.passes;
    } while (thread_cpu_seconds() - start < 0.05);
    timed.seconds += thread_cpu_seconds() - start;
  };
  Timed ours, simd, parse, write;
  for (int round = 0; round < 20; ++round) {
    round_of(ours, [&] {
      for (const auto& [r, t] : work) sink = sink + dec.decode(*r, *t).diagnostics.size();
    });
    round_of(simd, [&] {
      for (const auto& [r, t] : work) {
        simdjson::dom::element e;
        sink = sink + (dom.parse(*t).get(e) == simdjson::SUCCESS);
      }
    });
    round_of(parse, [&] {
      for (const auto& [r, t] : work) {
        std::string compact;
        sink = sink + json::parse(*t, limits, &compact).ok() + compact.size();
      }
    });
    round_of(write, [&] {
      for (std::size_t i = 0; i < work.size(); ++i) {
        if (!trees[i]) continue;
        write_options.size_hint = work[i].second->size();
        sink = sink + json::write(*trees[i], write_options).size();
      }
    });
  }
  auto mb_per_s = [&](const Timed& t) { return static_cast<double>(t.passes * bytes) / t.seconds / 1e6; };
  // CPU microseconds per KB (1,000 bytes) of input.
  auto us_per_kb = [&](const Timed& t) { return t.seconds / static_cast<double>(t.passes * bytes) * 1e9; };
  double ours_mb = mb_per_s(ours), simd_mb = mb_per_s(simd);
  std::cout << "payloads: " << work.size() << " (" << bytes << " bytes, " << accepted << " accepted, "
            << written << " of them re-encoded by the writer, the rest as json::parse's compact text)\n"
            << "load average: " << bench::load_average() << "\n"
            << "decode + re-encode: " << ours_mb << " MB per CPU second, "
            << static_cast<double>(ours.passes * work.size()) / ours.seconds
            << " documents per CPU second (one core)\n"
            << "simdjson DOM parse of the same bytes: " << simd_mb << " MB per CPU second ("
            << simdjson::get_active_implementation()->name()
            << "); decoder / simdjson = " << ours_mb / simd_mb << "\n";
  // The check is the decode less the parse (which includes freeing the tree, as the decode does) and
  // the write: a difference of measured rates, so it carries both rates' noise.
  double decode_us = us_per_kb(ours), simd_us = us_per_kb(simd);
  double parse_us = us_per_kb(parse), write_us = us_per_kb(write);
  std::cout << std::fixed << std::setprecision(2) << "where a decode's time goes, CPU us per KB: decode "
            << decode_us << " = json::parse " << parse_us << " + check " << decode_us - parse_us - write_us
            << " (the rest) + json::write " << write_us << "; simdjson DOM " << simd_us
            << ", so within 7x of it is " << 7 * simd_us << " for the whole decode\n";
  long before = max_rss_kb();
  std::string big = big_request(1 << 20);
  const schema::Root* req = ir->find_root("intercept_request");
  auto res = dec.decode(*req, big);
  long after = max_rss_kb();
  std::cout << "1 MB payload (" << big.size() << " bytes): " << (res.accepted ? "accepted" : "rejected")
            << "; peak RSS before " << before / 1024.0 << " MB, after " << after / 1024.0
            << " MB (decoder's share " << (after - before) / 1024.0 << " MB)\n";
  return 0;
}
