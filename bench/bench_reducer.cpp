// bench_reducer: how far, and in how many adapter calls, the reducer takes a 10 KB divergent payload.
//
// The payload is a valid instance of intercept_request generated from the real schema (the first
// seed, from --seed on, whose compact text is 9-13 KB), with a needle planted in its deepest object
// that still decodes without error: {"needle": {"k": [1, 2, 3]}}. The implementations are the
// in-process C++ decoder and tests/fake_adapters/needle_adapter.py in front of `crosscheck serve-adapter`
// (the crosscheck next to this benchmark), which rejects any payload holding a member named "needle":
// an acceptance divergence. The reducer runs with in-process screening (as `crosscheck reduce` does)
// and without it (every candidate goes to the adapters), --budget calls each.
//
// Hand-minimal: the smallest of a few witnesses written by hand (needle at the top of the smallest
// valid intercept_request a person finds, or in the event) that lands in the same bucket; the ratio
// is bytes after / hand-minimal. Goal: ratio <= 1.5 within 2000 calls.
// Usage: bench_reducer [--schema PATH] [--seed N] [--budget N] [--batch N]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "decoder/decoder.hpp"
#include "gen/generator.hpp"
#include "json/write.hpp"
#include "reduce/reducer.hpp"
#include "schema/loader.hpp"

namespace {

using crosscheck::bench::load_average;
using crosscheck::bench::self_dir;

using namespace crosscheck;
using Clock = std::chrono::steady_clock;

const std::vector<std::string> kHandMinimal = {
    R"({"jsonrpc":"2.0","id":0,"method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"type":""},"capabilities":{"effects":[]}},"needle":0})",
    R"({"jsonrpc":"2.0","id":0,"method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"type":"","needle":0},"capabilities":{"effects":[]}}})",
};

struct Spot {
  std::vector<std::size_t> path;  // child positions
  std::string pointer;
};

void objects(const json::Value& v, std::vector<std::size_t>& path, const std::string& pointer,
             std::vector<Spot>& out) {
  if (v.is_object()) out.push_back({path, pointer});
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      path.push_back(i);
      objects(v.items()[i], path, pointer + "/" + std::to_string(i), out);
      path.pop_back();
    }
  } else if (v.is_object()) {
    for (std::size_t i = 0; i < v.members().size(); ++i) {
      path.push_back(i);
      objects(v.members()[i].value, path, pointer + "/" + v.members()[i].key, out);
      path.pop_back();
    }
  }
}

json::Value& at(json::Value& v, const std::vector<std::size_t>& path) {
  json::Value* cur = &v;
  for (std::size_t i : path) cur = cur->is_array() ? &cur->items()[i] : &cur->members()[i].value;
  return *cur;
}

bool in_bucket(exec::ImplementationSet& set, const std::string& input, const std::string& bucket) {
  auto results = set.run({{"intercept_request", input}});
  for (const auto& d : results.front().divergences) {
    if (d.bucket == bucket) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  std::string schema_path;
  std::uint64_t seed = 1;
  std::size_t budget = 2000, batch = 16;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--schema") {
      schema_path = next();
    } else if (a == "--seed") {
      seed = std::stoull(next());
    } else if (a == "--budget") {
      budget = std::stoul(next());
    } else if (a == "--batch") {
      batch = std::stoul(next());
    } else {
      std::cerr << "usage: bench_reducer [--schema PATH] [--seed N] [--budget N] [--batch N]\n";
      return 2;
    }
  }
  if (schema_path.empty()) {
    auto p = schema::default_schema_path();
    if (!p) {
      std::cerr << "skipped: no schema bundle recorded (.deps/schema-path): run ./setup install\n";
      return 2;
    }
    schema_path = *p;
  }
  auto loaded = schema::load_schema(schema_path);
  if (!loaded.ok()) {
    std::cerr << "skipped: " << schema_path << " does not load: " << loaded.error().message() << "\n";
    return 2;
  }
  auto ir = std::make_shared<const schema::Ir>(std::move(loaded).value());
  const schema::Root* root = ir->find_root("intercept_request");
  if (!root) {
    std::cerr << "skipped: the schema has no intercept_request root\n";
    return 2;
  }
  const std::string server = self_dir() + "/crosscheck";
  if (::access(server.c_str(), X_OK) != 0) {
    std::cerr << "skipped: " << server << " is missing (build the crosscheck target too)\n";
    return 2;
  }

  // A 9-13 KB generated instance, and the deepest object that takes the needle without an error.
  gen::GenOptions g;
  g.max_depth = 12;
  g.max_array_items = 6;
  g.optional_probability = 0.9;
  gen::ValueGenerator generator(*ir, g);
  decoder::Decoder decoder(*ir);
  std::string input, where;
  std::uint64_t used_seed = 0;
  for (std::uint64_t s = seed; s < seed + 5000 && input.empty(); ++s) {
    json::Value v = generator.valid(*root, s);
    std::size_t size = json::write(v).size();
    if (size < 9000 || size > 13000) continue;
    std::vector<Spot> spots;
    std::vector<std::size_t> path;
    objects(v, path, "", spots);
    std::stable_sort(spots.begin(), spots.end(),
                     [](const Spot& a, const Spot& b) { return a.path.size() > b.path.size(); });
    for (const auto& spot : spots) {
      json::Value planted = v;
      json::Value needle = json::Value::object();
      needle.add("k", json::Value::array(
                          {json::Value::number("1"), json::Value::number("2"), json::Value::number("3")}));
      at(planted, spot.path).add("needle", std::move(needle));
      std::string text = json::write(planted);
      auto d = decoder.decode(*root, text);
      bool error = !d.accepted;
      for (const auto& x : d.diagnostics) error = error || x.severity == decoder::Severity::kError;
      if (!error) {
        input = text;
        where = spot.pointer + "/needle";
        used_seed = s;
        break;
      }
    }
  }
  if (input.empty()) {
    std::cerr << "skipped: no seed from " << seed << " gave a 9-13 KB instance with room for the needle\n";
    return 2;
  }

  exec::AdapterConfig cpp;
  cpp.spec.name = "cpp";
  exec::AdapterConfig planted;
  planted.spec.name = "planted";
  planted.spec.argv = {"python3",
                       std::string(CROSSCHECK_SOURCE_DIR) + "/tests/fake_adapters/needle_adapter.py",
                       "--",
                       server,
                       "serve-adapter",
                       "--schema",
                       schema_path};
  exec::ImplementationSet set(ir, {cpp, planted}, exec::PoolOptions{});
  if (!set.failures().empty()) {
    std::cerr << "skipped: the planted adapter did not start: " << set.failures().front().message << "\n";
    return 2;
  }
  run::Finding f;
  f.root = "intercept_request";
  f.input = input;
  std::string bucket;
  auto first = set.run({{f.root, input}});
  for (const auto& d : first.front().divergences) {
    if (d.cls == core::DivergenceClass::kAcceptance) bucket = d.bucket;
  }
  if (bucket.empty()) {
    std::cerr << "skipped: the planted payload gave no acceptance divergence\n";
    return 2;
  }
  std::size_t hand = 0;
  for (const auto& w : kHandMinimal) {
    if (!hand && in_bucket(set, w, bucket)) hand = w.size();
  }

  std::cout << "bench_reducer: intercept_request, " << input.size() << "-byte generated instance (seed "
            << used_seed << "), needle at " << where << "\n"
            << "schema " << schema_path << "\nload average " << load_average() << "\n";
  if (!hand) std::cout << "hand-minimal: none of the witnesses lands in the bucket (no ratio printed)\n";
  std::cout << std::left << std::setw(11) << "screening" << std::right << std::setw(7) << "calls"
            << std::setw(10) << "screened" << std::setw(14) << "bytes before" << std::setw(13)
            << "bytes after" << std::setw(14) << "hand-minimal" << std::setw(7) << "ratio" << std::setw(9)
            << "seconds"
            << "\n";
  std::string last;
  bool met = hand > 0;
  for (bool screening : {true, false}) {
    reduce::ReduceOptions o;
    o.budget = budget;
    o.batch = batch;
    o.oracle = screening ? ir.get() : nullptr;
    auto start = Clock::now();
    reduce::ReduceResult r = reduce::reduce(f, bucket, set, o);
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    double ratio = hand ? static_cast<double>(r.input.size()) / static_cast<double>(hand) : 0;
    met = met && r.reproduced && ratio <= 1.5 && r.calls <= 2000;
    std::cout << std::left << std::setw(11) << (screening ? "on" : "off") << std::right << std::setw(7)
              << r.calls << std::setw(10) << r.screened << std::setw(14) << input.size() << std::setw(13)
              << r.input.size() << std::setw(14) << (hand ? std::to_string(hand) : "-") << std::setw(7)
              << std::fixed << std::setprecision(2) << ratio << std::setw(9) << std::setprecision(1)
              << seconds << (r.budget_exhausted ? "  (budget reached)" : "") << "\n";
    last = r.input;
  }
  std::cout << "minimized (screening off): " << last << "\n"
            << "goal (ratio <= 1.5 within 2000 calls, both runs): " << (met ? "met" : "NOT met") << "\n";
  return 0;
}
