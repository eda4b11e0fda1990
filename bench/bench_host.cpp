// bench_host.cpp: the C++ reference host's rate (host::apply, with canonical validation of the
// request and response), in scenarios per CPU second, on generated rows (src/layers/contextual/generate,
// every family in turn) or on the rows of a scenario file. bench/bench_scenarios.sh prints it beside the SDK
// interop clients' rates measured in the same run (goal: at least 100x the Python client).
//
//   build/bench_host [--seconds S] [--rows N] [--schema PATH] [SCENARIO_FILE]
#include <time.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_schema.hpp"
#include "bench/bench_support.hpp"
#include "canonical/canonical_validator.hpp"
#include "json/parse.hpp"
#include "json/value.hpp"
#include "layers/contextual/generate/scenario_generator.hpp"
#include "layers/contextual/host/host.hpp"
#include "schema/loader.hpp"

namespace {

double cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace crosscheck;
  double seconds = 3;
  std::size_t count = 480;
  std::string schema_path, file;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seconds" && i + 1 < argc) {
      seconds = std::stod(argv[++i]);
    } else if (a == "--rows" && i + 1 < argc) {
      count = std::stoul(argv[++i]);
    } else if (a == "--schema" && i + 1 < argc) {
      schema_path = argv[++i];
    } else if (!a.empty() && a[0] != '-') {
      file = a;
    } else {
      std::cerr << "usage: bench_host [--seconds S] [--rows N] [--schema PATH] [SCENARIO_FILE]\n";
      return 2;
    }
  }
  auto ir = bench::load_bench_schema(schema_path);
  if (!ir) return 2;
  auto validator = canonical::CanonicalValidator::from_ir(ir.value());
  if (!validator.ok()) {
    std::cerr << "ERROR: " << validator.error().text() << "\n";
    return 2;
  }
  // The (request, response) pairs: the file's rows, or generated ones.
  std::vector<std::pair<json::Value, json::Value>> rows;
  if (!file.empty()) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = json::parse(text.str());
    if (!in || !parsed.ok()) {
      std::cerr << "ERROR: " << file << ": " << (in ? parsed.error().message() : "cannot read it") << "\n";
      return 2;
    }
    const json::Value* list = parsed.value().find("scenarios");
    if (!list || !list->is_array()) {
      std::cerr << "ERROR: " << file << ": expected a scenario file with \"scenarios\"\n";
      return 2;
    }
    for (const auto& r : list->items()) {
      const json::Value *req = r.find("request"), *resp = r.find("response");
      if (req && resp) rows.emplace_back(*req, *resp);
    }
  } else {
    scenario_gen::ScenarioGenerator generator(validator.value());
    std::vector<const scenario_gen::Family*> families;
    for (const auto& f : scenario_gen::families()) families.push_back(&f);
    for (auto& g : generator.generate_many(1, count, families)) rows.emplace_back(g.request, g.response);
  }
  if (rows.empty()) {
    std::cerr << "ERROR: no rows to apply\n";
    return 2;
  }
  std::size_t applied = 0, accepted = 0;
  const double start = cpu_seconds();
  double used = 0;
  while (used < seconds) {
    for (const auto& [request, response] : rows) {
      accepted += host::apply(validator.value(), request, response).accepted;
      ++applied;
    }
    used = cpu_seconds() - start;
  }
  std::cout << "reference host: " << static_cast<long long>(static_cast<double>(applied) / used)
            << " scenarios per CPU second (" << applied << " applications of " << rows.size() << " "
            << (file.empty() ? "generated rows" : "rows of " + file) << ", " << accepted
            << " accepted; load average " << bench::load_average() << ")\n";
  return 0;
}
