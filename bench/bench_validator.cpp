// bench_validator: layer-2 (canonical validation) rates on the same real-schema payloads.
//
// Over the payloads given (default: corpus/examples and bench/payloads, each validated against the
// document its file name starts with), one run prints:
//   - the C++ reference validator (src/canonical/): documents/s and MB/s of parse + validate on one
//     core, in this process;
//   - each SDK's in-process validate rate: Python's agenthooksprotocol.runtime.Validator from the
//     set-up venv, timed inside Python on json.loads + validate of the same bytes (what its adapter
//     does per request, minus the protocol); any other adapter (Rust): the bench op with a document,
//     timed in its process, 20 validations of a payload in a row, and "in context": one a request,
//     alternating over the mix as the harness does (a payload validated 20 times in a row stays hot),
//     pipelined as the harness sends them;
//   - the harness's validate rate through each adapter (--adapters, default cpp, python, rust):
//     AdapterPool::validate, one process, --in-flight requests pipelined, batches of --batch, for
//     about --seconds, on the payloads whose document the adapter validates (a probe round drops the
//     ones it answers unsupported), against that adapter's in-process rate on the same subset (cpp:
//     the C++ validator here; python: the SDK in the venv), with the ratio (goal: at least 0.8).
// Rates over a payload mix are over whole rounds of it (each payload once per round). Not a test:
// figures only, and they mean little on a busy machine (the load average is printed beside them).
// --config FILE reads the adapters from another configuration than adapters/default.json.
// Usage: bench_validator [--schema PATH] [--seconds N] [--adapters a,b] [--config FILE] [--in-flight N]
//                        [--batch N] [document:payload.json ...]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_schema.hpp"
#include "bench/bench_support.hpp"
#include "canonical/canonical_validator.hpp"
#include "core/impl_result.hpp"
#include "exec/adapter_config.hpp"
#include "exec/adapter_pool.hpp"
#include "schema/loader.hpp"

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The Python SDK's documents/s on the same payloads, or a negative number when it cannot run.
double python_rate(const std::vector<std::pair<std::string, std::string>>& docs, double seconds) {
  const std::string python = std::string(CROSSCHECK_SOURCE_DIR) + "/.venv/bin/python";
  if (!std::filesystem::exists(python)) return -1;
  const auto dir = std::filesystem::temp_directory_path() / ("bench_validator." + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream list(dir / "payloads.txt");
  for (const auto& [document, bytes] : docs) {
    std::ofstream(dir / (std::to_string(&document - &docs[0].first) + ".json"), std::ios::binary) << bytes;
    list << document << " " << (dir / (std::to_string(&document - &docs[0].first) + ".json")).string()
         << "\n";
  }
  list.close();
  std::ofstream(dir / "rate.py")
      << "import json, sys, time\n"
         "from agenthooksprotocol.runtime import Validator\n"
         "v = Validator()\n"
         "docs = [(l.split()[0], open(l.split()[1], 'rb').read()) for l in open(sys.argv[1])]\n"
         "n, start = 0, time.perf_counter()\n"
         "while time.perf_counter() - start < float(sys.argv[2]):\n"
         "    for kind, text in docs:\n"
         "        try: v.validate(kind, json.loads(text))\n"
         "        except Exception: pass\n"
         "        n += 1\n"
         "print(n / (time.perf_counter() - start))\n";
  const std::string command = "'" + python + "' '" + (dir / "rate.py").string() + "' '" +
                              (dir / "payloads.txt").string() + "' " + std::to_string(seconds);
  double rate = -1;
  if (FILE* out = ::popen(command.c_str(), "r")) {
    if (std::fscanf(out, "%lf", &rate) != 1) rate = -1;
    ::pclose(out);
  }
  std::filesystem::remove_all(dir);
  return rate;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace crosscheck;
  std::string schema_path;
  double seconds = 3;
  std::vector<std::string> adapters = {"cpp", "python", "rust"};
  std::size_t in_flight = 64, batch_size = 1024;
  std::string config_path = exec::default_adapter_config_path();
  std::vector<std::pair<std::string, std::string>> docs;  // document, bytes
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--schema" && i + 1 < argc) {
      schema_path = argv[++i];
    } else if (a == "--seconds" && i + 1 < argc) {
      seconds = std::stod(argv[++i]);
    } else if (a == "--adapters" && i + 1 < argc) {
      adapters.clear();
      std::stringstream list(argv[++i]);
      for (std::string name; std::getline(list, name, ',');)
        if (!name.empty()) adapters.push_back(name);
    } else if (a == "--config" && i + 1 < argc) {
      config_path = argv[++i];
    } else if (a == "--in-flight" && i + 1 < argc) {
      in_flight = std::stoul(argv[++i]);
    } else if (a == "--batch" && i + 1 < argc) {
      batch_size = std::max<std::size_t>(1, std::stoul(argv[++i]));
    } else if (auto colon = a.find(':'); colon != std::string::npos) {
      docs.emplace_back(a.substr(0, colon), read_file(a.substr(colon + 1)));
    } else {
      std::cerr << "ERROR: expected document:payload.json, got " << a << "\n";
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
  if (docs.empty()) {
    for (const char* dir : {"/corpus/examples", "/bench/payloads"}) {
      for (const auto& e : std::filesystem::directory_iterator(std::string(CROSSCHECK_SOURCE_DIR) + dir)) {
        std::string document = e.path().filename().string();
        document = document.substr(0, document.find('.'));
        for (char& c : document) c = c == '_' ? '-' : c;
        docs.emplace_back(document, read_file(e.path()));
      }
    }
  }
  struct Rate {
    double documents = 0, megabytes = 0;
    std::size_t valid = 0, count = 0;
  };
  // The C++ validator on `mix`, whole rounds for about `budget` seconds.
  auto cpp_rate = [&](const std::vector<std::pair<std::string, std::string>>& mix, double budget) {
    Rate r;
    std::size_t bytes = 0;
    auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    while (elapsed < budget) {
      for (const auto& [document, payload] : mix) {
        auto v = validator->validate(document, payload);
        r.valid += v && v->valid;
        bytes += payload.size();
        ++r.count;
      }
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    r.documents = static_cast<double>(r.count) / elapsed;
    r.megabytes = static_cast<double>(bytes) / elapsed / 1e6;
    return r;
  };
  for (const auto& [document, payload] : docs) {
    if (!validator->knows(document)) {
      std::cerr << "ERROR: unknown document " << document << "\n";
      return 2;
    }
  }
  std::printf("bench_validator: %zu payloads, ~%.0f s per figure; load average at start: %s\n", docs.size(),
              seconds, bench::load_average().c_str());
  const Rate cpp = cpp_rate(docs, seconds);
  std::printf(
      "canonical validator (C++ reference): %zu payloads, %.0f documents/s, %.1f MB/s (%zu of %zu valid)\n",
      docs.size(), cpp.documents, cpp.megabytes, cpp.valid, cpp.count);
  double py = python_rate(docs, seconds);
  if (py > 0) {
    std::printf(
        "python SDK runtime.Validator (json.loads + validate): %.0f documents/s; C++ / python = %.1fx\n", py,
        cpp.documents / py);
  } else {
    std::printf("python SDK runtime.Validator: not measured (no .venv; run ./setup install)\n");
  }
  std::printf(
      "rust SDK canonical validator: measured in its adapter's process by the bench op with a document (the "
      "in-process column of the rust row below)\n");

  // The harness: validate through each adapter's process, on the payloads it validates.
  auto all = exec::load_adapter_config(config_path, exec::repository_root());
  if (!all.ok()) {
    std::cerr << "ERROR: " << all.error() << "\n";
    return 2;
  }
  auto selected = exec::select_adapters(all.value(), adapters, {});
  if (!selected.ok()) {
    std::cerr << "ERROR: " << selected.error() << "\n";
    return 2;
  }
  struct Row {
    std::string adapter, skipped, note;
    double harness = 0, in_process = 0;
    double in_context = 0;  // bench op, 1 validation a request, alternating over the mix
    double single = 0;      // harness doc/s with single requests (PoolOptions::max_batch 1), same run
    std::size_t payloads = 0, requests = 0;
    double harness_cpu_us = 0;
    std::map<std::string, std::size_t> verdicts;
  };
  std::vector<Row> rows;
  for (auto config : selected.value()) {
    Row row;
    row.adapter = config.spec.name;
    std::string beside = bench::self_dir() + "/crosscheck";
    if (config.spec.name == "cpp" && config.unavailable && std::filesystem::exists(beside)) {
      config.spec.argv[0] = beside;
      config.unavailable.reset();
    }
    if (config.unavailable) {
      row.skipped = "unavailable: " + *config.unavailable;
      rows.push_back(row);
      continue;
    }
    crosscheck::exec::PoolOptions options;
    options.processes = 1;
    options.max_in_flight = in_flight;
    auto started = exec::AdapterPool::start(config.spec, options);
    if (!started.ok()) {
      row.skipped = "cannot start: " + started.error().message;
      rows.push_back(row);
      continue;
    }
    auto& pool = *started.value();
    std::vector<exec::ValidateRequest> probe;
    for (const auto& [document, payload] : docs) probe.push_back({document, payload});
    auto answers = pool.validate(probe);
    std::vector<std::pair<std::string, std::string>> mix;
    std::vector<exec::ValidateRequest> requests;
    for (std::size_t i = 0; i < answers.size(); ++i) {
      if (answers[i].verdict == core::Verdict::kUnsupported) {
        row.note += (row.note.empty() ? "unsupported: " : ", ") + docs[i].first;
        continue;
      }
      mix.push_back(docs[i]);
      requests.push_back(probe[i]);
    }
    row.payloads = mix.size();
    if (mix.empty()) {
      row.skipped = "validates none of the payloads' documents";
      pool.shutdown();
      rows.push_back(row);
      continue;
    }
    std::vector<exec::ValidateRequest> batch;
    for (std::size_t i = 0; i < batch_size; ++i) batch.push_back(requests[i % requests.size()]);
    rusage before{}, after{};
    ::getrusage(RUSAGE_SELF, &before);
    auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    while (elapsed < seconds) {
      for (const auto& r : pool.validate(batch)) ++row.verdicts[core::verdict_name(r.verdict)];
      row.requests += batch.size();
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    ::getrusage(RUSAGE_SELF, &after);
    auto secs = [](const timeval& t) {
      return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    row.harness_cpu_us =
        (secs(after.ru_utime) + secs(after.ru_stime) - secs(before.ru_utime) - secs(before.ru_stime)) * 1e6 /
        static_cast<double>(row.requests);
    row.harness = static_cast<double>(row.requests) / elapsed;
    // The same phase with single requests (the protocol without the batch op), on a second process.
    {
      crosscheck::exec::PoolOptions single_options = options;
      single_options.max_batch = 1;
      auto single = exec::AdapterPool::start(config.spec, single_options);
      if (single.ok()) {
        single.value()->validate(requests);
        auto t0 = std::chrono::steady_clock::now();
        double spent = 0;
        std::size_t n = 0;
        while (spent < seconds) {
          n += single.value()->validate(batch).size();
          spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        row.single = static_cast<double>(n) / spent;
        single.value()->shutdown();
      }
    }
    // Any other adapter's own validate time: the bench op with a document (docs/protocol.md), timed
    // inside its process over the same subset, right after the harness figure.
    double bench_rate = 0;
    // Which in-process figure applies goes by what the adapter says it is (its hello), so that a
    // second configuration of the same implementation (--config) is measured the same way.
    const std::string who = pool.identity().reported_name;
    if (who != "cpp" && who != "python") {
      constexpr std::uint64_t kIterations = 20;
      std::uint64_t nanos = 0, validations = 0;
      bool answered = true;
      while (answered && static_cast<double>(nanos) / 1e9 < seconds) {
        for (const auto& r : requests) {
          auto n = pool.bench_validate(r, kIterations);
          if (!n) {
            answered = false;
            break;
          }
          nanos += *n;
          validations += kIterations;
        }
      }
      if (answered && nanos > 0)
        bench_rate = static_cast<double>(validations) / (static_cast<double>(nanos) / 1e9);
      // In context: one validation a request, round after round over the mix, so that the calls
      // alternate between payloads as in the harness (20 in a row keep one payload's work hot);
      // pipelined as the harness sends (bench_validate_each), so the adapter is never charged a
      // wake-up per call that a run does not make it pay (docs/benchmarks.md, 2026-12-06).
      std::vector<exec::ValidateRequest> rounds;
      for (int k = 0; k < 16; ++k) rounds.insert(rounds.end(), requests.begin(), requests.end());
      std::uint64_t context_nanos = 0, calls = 0;
      auto t0 = std::chrono::steady_clock::now();
      while (answered &&
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds / 2) {
        for (const auto& n : pool.bench_validate_each(rounds, 1)) {
          if (!n) {
            answered = false;
            break;
          }
          context_nanos += *n;
          ++calls;
        }
      }
      if (answered && context_nanos > 0)
        row.in_context = static_cast<double>(calls) / (static_cast<double>(context_nanos) / 1e9);
    }
    pool.shutdown();
    // The adapter's in-process rate on the same subset, measured right after (same machine state).
    if (who == "cpp") {
      row.in_process = cpp_rate(mix, seconds).documents;
    } else if (who == "python") {
      row.in_process = python_rate(mix, seconds);
    } else if (bench_rate > 0) {
      row.in_process = bench_rate;
      row.note += std::string(row.note.empty() ? "" : "; ") + "in-process rate from its bench op";
    } else {
      row.note +=
          std::string(row.note.empty() ? "" : "; ") + "no in-process validate rate (its bench op declined)";
    }
    rows.push_back(row);
    std::printf("  %s: done\n", row.adapter.c_str());
    std::fflush(stdout);
  }
  std::cout << "\n"
            << std::left << std::setw(10) << "adapter" << std::right << std::setw(10) << "payloads"
            << std::setw(16) << "harness doc/s" << std::setw(18) << "in-process doc/s" << std::setw(20)
            << "harness/in-process" << std::setw(18) << "in-context doc/s" << std::setw(20)
            << "harness/in-context" << std::setw(14) << "single doc/s" << std::setw(19) << "single/in-process"
            << std::setw(14) << "C++ / it"
            << "\n";
  for (const auto& r : rows) {
    std::cout << std::left << std::setw(10) << r.adapter << std::right;
    if (!r.skipped.empty()) {
      std::cout << "  skipped: " << r.skipped << "\n";
      continue;
    }
    auto fixed = [](double v, int digits) {
      std::ostringstream out;
      out << std::fixed << std::setprecision(digits) << v;
      return out.str();
    };
    std::cout << std::setw(10) << r.payloads << std::setw(16) << fixed(r.harness, 0) << std::setw(18)
              << (r.in_process > 0 ? fixed(r.in_process, 0) : "-") << std::setw(20)
              << (r.in_process > 0 ? fixed(r.harness / r.in_process, 2) : "-") << std::setw(18)
              << (r.in_context > 0 ? fixed(r.in_context, 0) : "-") << std::setw(20)
              << (r.in_context > 0 ? fixed(r.harness / r.in_context, 2) : "-") << std::setw(14)
              << (r.single > 0 ? fixed(r.single, 0) : "-") << std::setw(19)
              << (r.single > 0 && r.in_process > 0 ? fixed(r.single / r.in_process, 2) : "-") << std::setw(14)
              << (r.in_process > 0 ? fixed(cpp.documents / r.in_process, 1) + "x" : "-") << "\n";
  }
  std::cout << "\n";
  for (const auto& r : rows) {
    if (!r.skipped.empty()) continue;
    std::cout << r.adapter << ": " << r.requests << " requests, harness CPU " << std::fixed
              << std::setprecision(1) << r.harness_cpu_us << " us per request;";
    for (const auto& [verdict, n] : r.verdicts) std::cout << " " << verdict << " " << n;
    if (!r.note.empty()) std::cout << "; " << r.note;
    std::cout << "\n";
  }
  std::printf("load average at end: %s\n", bench::load_average().c_str());
  return 0;
}
