// bench_json: parse throughput of the lossless parser against the parsers it was chosen over.
//
// Prints MB per CPU second for each, measured in interleaved rounds in one run on the same payloads:
//   crosscheck  json::parse (the fast path -> lossless tree), parse + write, and the simdjson path
//               alone (simdjson On-Demand + our strings/numbers: what parse() does for bad input)
//   simdjson    DOM parse (runtime-dispatched kernel), no tree of ours
//   nlohmann    nlohmann::json::parse (DOM)
// Usage: bench_json [payload.json ...]   (default: bench/payloads/*.json)
#include <simdjson.h>
#include <time.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "bench/bench_support.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// CPU time of this thread: unlike the wall clock, it does not count the time other jobs on a shared
/// machine hold the core.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// One contender: MB parsed per CPU second, accumulated over interleaved rounds.
struct Contender {
  const char* name;
  std::function<void(const std::string&)> parse;
  double seconds = 0;
  std::size_t bytes = 0;
  double mb_per_s() const { return static_cast<double>(bytes) / seconds / 1e6; }
};

/// Rounds of ~50 ms per contender, in turn, for ~0.5 s each: a burst of load elsewhere then
/// slows every contender alike, so the ratios hold even when the absolute figures wobble.
void measure(const std::vector<std::string>& docs, std::vector<Contender>& contenders) {
  std::size_t bytes = 0;
  for (const auto& d : docs) bytes += d.size();
  for (auto& c : contenders) {
    for (const auto& d : docs) c.parse(d);  // warm up
  }
  for (int round = 0; round < 10; ++round) {
    for (auto& c : contenders) {
      double start = thread_cpu_seconds(), elapsed = 0;
      while (elapsed < 0.05) {
        for (int i = 0; i < 20; ++i) {
          for (const auto& d : docs) c.parse(d);
          c.bytes += bytes;
        }
        elapsed = thread_cpu_seconds() - start;
      }
      c.seconds += elapsed;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> docs;
  if (argc > 1) {
    for (int i = 1; i < argc; ++i) docs.push_back(read_file(argv[i]));
  } else {
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(CROSSCHECK_SOURCE_DIR) + "/bench/payloads")) {
      if (e.path().extension() == ".json") docs.push_back(read_file(e.path()));
    }
  }
  if (docs.empty()) {
    std::cerr << "ERROR: no payloads\n";
    return 2;
  }
  std::size_t bytes = 0;
  for (const auto& d : docs) bytes += d.size();
  volatile std::size_t sink = 0;
  simdjson::dom::parser dom;
  std::vector<Contender> contenders{
      {"crosscheck json::parse",
       [&](const std::string& d) { sink = sink + crosscheck::json::parse(d).ok(); }},
      {"crosscheck parse + write",
       [&](const std::string& d) {
         auto v = crosscheck::json::parse(d);
         sink = sink + crosscheck::json::write(v.value()).size();
       }},
      {"crosscheck simdjson path (errors)",
       [&](const std::string& d) { sink = sink + crosscheck::json::detail::parse_with_simdjson(d).ok(); }},
      {"simdjson DOM parse",
       [&](const std::string& d) {
         simdjson::dom::element e;
         sink = sink + (dom.parse(d).get(e) == simdjson::SUCCESS);
       }},
      {"nlohmann::json::parse", [&](const std::string& d) { sink = sink + nlohmann::json::parse(d).size(); }},
  };
  measure(docs, contenders);
  const Contender& ours = contenders[0];
  const Contender& simd = contenders[3];
  const Contender& nl = contenders[4];
  std::cout << "payloads: " << docs.size() << " (" << bytes << " bytes)\n"
            << "load average: " << crosscheck::bench::load_average() << "\n"
            << "simdjson kernels: on-demand (compiled in) = " << simdjson::builtin_implementation()->name()
            << ", DOM (runtime) = " << simdjson::get_active_implementation()->name() << "\n"
            << "MB per CPU second, interleaved rounds in one run:\n";
  for (const auto& c : contenders) {
    std::cout << "  " << c.name << std::string(36 - std::string(c.name).size(), ' ') << c.mb_per_s() << "\n";
  }
  std::cout << "ratio json::parse / simdjson DOM    " << ours.mb_per_s() / simd.mb_per_s() << "\n"
            << "ratio json::parse / nlohmann        " << ours.mb_per_s() / nl.mb_per_s() << "x\n";
  return 0;
}
