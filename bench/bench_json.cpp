// bench_json: parse throughput of the lossless parser against the parsers it was chosen over.
//
// Prints MB/s for each, measured side by side in one run on the same payloads:
//   crosscheck  json::parse (simdjson On-Demand + our strings/numbers -> lossless tree)
//   simdjson    DOM parse (runtime-dispatched kernel), no tree of ours
//   nlohmann    nlohmann::json::parse (DOM)
// Usage: bench_json [payload.json ...]   (default: bench/payloads/*.json)
#include <simdjson.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "json/parse.hpp"
#include "json/write.hpp"

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <class F>
double mb_per_s(const std::vector<std::string>& docs, F&& f) {
  std::size_t bytes = 0;
  for (const auto& d : docs) bytes += d.size();
  // Warm up, then run for ~0.5 s.
  for (const auto& d : docs) f(d);
  auto start = std::chrono::steady_clock::now();
  std::size_t total = 0;
  double elapsed = 0;
  while (elapsed < 0.5) {
    for (int i = 0; i < 50; ++i) {
      for (const auto& d : docs) f(d);
      total += bytes;
    }
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return static_cast<double>(total) / elapsed / 1e6;
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
  double ours = mb_per_s(docs, [&](const std::string& d) { sink = sink + crosscheck::json::parse(d).ok(); });
  double ours_rt = mb_per_s(docs, [&](const std::string& d) {
    auto v = crosscheck::json::parse(d);
    sink = sink + crosscheck::json::write(v.value()).size();
  });
  simdjson::dom::parser dom;
  double simd = mb_per_s(docs, [&](const std::string& d) {
    simdjson::dom::element e;
    sink = sink + (dom.parse(d).get(e) == simdjson::SUCCESS);
  });
  double nl = mb_per_s(docs, [&](const std::string& d) { sink = sink + nlohmann::json::parse(d).size(); });
  std::cout << "payloads: " << docs.size() << " (" << bytes << " bytes)\n"
            << "simdjson kernels: on-demand (compiled in) = " << simdjson::builtin_implementation()->name()
            << ", DOM (runtime) = " << simdjson::get_active_implementation()->name() << "\n"
            << "crosscheck json::parse          " << ours << " MB/s\n"
            << "crosscheck parse + write         " << ours_rt << " MB/s\n"
            << "simdjson DOM parse               " << simd << " MB/s\n"
            << "nlohmann::json::parse            " << nl << " MB/s\n"
            << "ratio crosscheck/nlohmann        " << ours / nl << "x\n";
  return 0;
}
