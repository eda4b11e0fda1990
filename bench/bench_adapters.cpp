// bench_adapters: how much of each SDK's own speed the harness delivers.
//
// For each adapter (default cpp, python, rust; --adapters to choose), on the same real-schema
// payloads (corpus/examples/*.json, root = file name up to the first '.'):
//   harness      requests/s through AdapterPool::decode, one process, pipelined (--in-flight), in
//                batches of --batch requests for about --seconds, in 8 slices interleaved with the
//                in-context ones (below), so that both see the same machine;
//   in-process   requests/s the adapter reports for the same payloads through the bench op
//                (parse + encode inside the SDK, no protocol);
//   in-context   the same bench op with one iteration a request, round after round over the mix,
//                pipelined as the harness sends: the SDK's own time per call when the calls
//                alternate between payloads as in the harness, with the protocol work of the
//                adapter in between (a loop on one payload keeps that payload's code and data hot,
//                which no run sees), for about --seconds/2 in 8 slices between the harness ones;
//                the same one request at a time is printed below the table;
//   ratio        harness / in-process and harness / in-context (the goal is at least 0.9);
//   cpp/SDK      the in-process C++ decoder's rate (decoder::Decoder here, same payloads) over the
//                SDK's in-process rate.
// Rates over the payload mix are harmonic: each payload counts once per round, as in the harness.
// An adapter that cannot start is reported as skipped with the reason; one without the bench op
// gets its harness rate and no ratio. The load average is printed before and after, since the
// figures only mean something next to it.
// --config FILE reads the adapters from another configuration than adapters/default.json (for
// example one that also names main's build as "cpp-main", to measure before and after in one run).
// --protocol-floor adds a row, cpp-echo, for the cpp adapter with --echo-input (every decode answered without
// decoding, the answer as long as the input): the CPU a request the protocol alone costs each side.
// With the cpp row's in-context time per decode D and that adapter CPU A, no pipe-line adapter can
// beat D / (D + A) of the in-context rate: the bound is printed under the table.
// Usage: bench_adapters [--adapters a,b] [--config FILE] [--seconds S] [--in-flight N] [--batch N]
//                       [--protocol-floor] [root:file.json ...]
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/impl_result.hpp"
#include "decoder/decoder.hpp"
#include "exec/adapter_config.hpp"
#include "exec/adapter_pool.hpp"
#include "schema/loader.hpp"

namespace {

using crosscheck::bench::load_average;
using crosscheck::bench::self_dir;

using namespace crosscheck;
using Clock = std::chrono::steady_clock;

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// CPU seconds (user + system) this process has used so far.
double self_cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  auto secs = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

// CPU seconds used so far by this process's live children (the adapter processes and, for a
// wrapper, not its own children), from /proc/<pid>/stat: how the work splits between harness and
// adapter is what the ratio depends on when both share the cores.
double children_cpu_seconds() {
  double total = 0;
  const long ticks = ::sysconf(_SC_CLK_TCK);
  const std::string me = std::to_string(::getpid());
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat = read_file(e.path() / "stat");
    auto paren = stat.rfind(')');
    if (paren == std::string::npos) continue;
    std::istringstream fields(stat.substr(paren + 2));
    std::string state, ppid, skip;
    fields >> state >> ppid;
    if (ppid != me) continue;
    for (int k = 0; k < 9; ++k) fields >> skip;  // pgrp .. cmajflt
    double utime = 0, stime = 0;
    fields >> utime >> stime;
    total += (utime + stime) / static_cast<double>(ticks);
  }
  return total;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::string fixed(double v, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << v;
  return out.str();
}

struct Payload {
  std::string root, name, bytes;
};

struct Row {
  std::string adapter;
  std::string skipped;  // why no figures (cannot start)
  std::string note;     // e.g. no bench op, payloads it lacks
  double harness = 0, in_process = 0, cpp = 0;
  double in_context = 0;             // bench op, 1 iteration a request, alternating over the mix, pipelined
  double in_context_sequential = 0;  // the same, one request at a time
  double single = 0;  // harness req/s with single requests (PoolOptions::max_batch 1), same run
  double single_harness_cpu_us = 0, single_adapter_cpu_us = 0;
  double harness_cpu_us = 0, adapter_cpu_us = 0;  // per request, during the harness phase
  double in_process_cpu_us = 0;                   // the adapter's CPU per request in the bench op
  std::size_t requests = 0;
  double seconds = 0;
  std::map<std::string, std::size_t> outcomes;
};

// Mean seconds per decode of each payload, run in a loop for about `budget` seconds each.
double cpp_seconds_per_round(const decoder::Decoder& dec, const schema::Ir& ir,
                             const std::vector<Payload>& work, double budget) {
  double total = 0;
  for (const auto& p : work) {
    const schema::Root* root = ir.find_root(p.root);
    std::size_t n = 0;
    auto start = Clock::now();
    double elapsed = 0;
    std::size_t sink = 0;
    while (elapsed < budget) {
      for (int k = 0; k < 50; ++k, ++n) sink += dec.decode(*root, p.bytes).diagnostics.size();
      elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    }
    if (sink == static_cast<std::size_t>(-1)) std::cerr << "";  // keeps the results observable
    total += elapsed / static_cast<double>(n);
  }
  return total;
}

Row bench_adapter(const exec::AdapterConfig& config, const std::vector<Payload>& payloads,
                  double cpp_round_seconds, double seconds, std::size_t in_flight, std::size_t batch_size) {
  Row row;
  row.adapter = config.spec.name;
  if (config.unavailable) {
    row.skipped = "unavailable: " + *config.unavailable;
    return row;
  }
  exec::PoolOptions options;
  options.processes = 1;
  options.max_in_flight = in_flight;
  auto started = exec::AdapterPool::start(config.spec, options);
  if (!started.ok()) {
    row.skipped = "cannot start: " + started.error().message;
    return row;
  }
  auto& pool = *started.value();
  const auto& roots = pool.identity().roots;
  std::vector<exec::DecodeRequest> mix;
  for (const auto& p : payloads) {
    if (std::find(roots.begin(), roots.end(), p.root) == roots.end()) {
      row.note +=
          (row.note.empty() ? "" : "; ") + std::string("lacks root ") + p.root + " (" + p.name + " left out)";
      continue;
    }
    mix.push_back({p.root, p.bytes});
  }
  if (mix.empty()) {
    row.skipped = "none of the payloads' roots is listed by the adapter";
    return row;
  }

  // (b) in-process: calibrate on 20 iterations, then about seconds/2 over the whole mix.
  // A payload the bench op cannot time (not UTF-8: the adapter answers without calling the SDK)
  // leaves the mix of every phase, so that the ratios compare the same payloads.
  const std::vector<exec::DecodeRequest> whole_mix = mix;
  std::size_t untimed = 0;
  for (std::size_t k = 0; k < mix.size();) {
    auto probe = pool.bench(mix[k], 1);
    if (probe && *probe > 0) {
      ++k;
    } else {
      mix.erase(mix.begin() + static_cast<std::ptrdiff_t>(k));
      ++untimed;
    }
  }
  bool have_bench = !mix.empty();
  if (!have_bench) {
    mix = whole_mix;  // no bench op at all: the harness phases run on every payload
  } else if (untimed > 0) {
    row.note += (row.note.empty() ? "" : "; ") + std::to_string(untimed) +
                " payloads the bench op cannot time (e.g. not UTF-8) left out of every phase";
  }
  double sdk_round = 0, sdk_cpu_round = 0;
  for (std::size_t k = 0; have_bench && k < mix.size(); ++k) {
    const auto& r = mix[k];
    auto probe = pool.bench(r, 20);
    if (!probe || *probe == 0) {
      have_bench = false;
      break;
    }
    double per = static_cast<double>(*probe) / 20e9;
    auto iterations = static_cast<std::uint64_t>(std::clamp(seconds / 2 / mix.size() / per, 20.0, 1e7));
    double cpu_before = children_cpu_seconds();
    auto nanos = pool.bench(r, iterations);
    if (!nanos) {
      have_bench = false;
      break;
    }
    sdk_round += static_cast<double>(*nanos) / 1e9 / static_cast<double>(iterations);
    sdk_cpu_round += (children_cpu_seconds() - cpu_before) / static_cast<double>(iterations);
  }
  if (!have_bench)
    row.note += (row.note.empty() ? "" : "; ") + std::string("no bench op: in-process rate skipped");

  // (b') in context, one request at a time (how it was measured until 2026-12-06), for about
  // seconds/4: printed below the table for comparison. An adapter whose call takes microseconds pays
  // a cold start after every wait on the pipe, which a run never makes it wait (docs/benchmarks.md).
  // The in-context phase sends the mix in whole rounds of about 512 requests (64 rounds of the eight
  // corpus payloads, as before): a fixed 64 rounds of a run's sampled mix (a thousand payloads) made
  // each slice take seconds where it should take a sixteenth of --seconds.
  std::vector<exec::DecodeRequest> repeated_mix;
  const std::size_t mix_rounds = mix.empty() ? 0 : (512 + mix.size() - 1) / mix.size();
  for (std::size_t k = 0; have_bench && k < mix_rounds; ++k)
    repeated_mix.insert(repeated_mix.end(), mix.begin(), mix.end());
  std::uint64_t context_nanos = 0;
  std::size_t context_calls = 0;
  // Bench requests until `budget` seconds have passed; adds the adapter's own nanos and the calls.
  auto sum_nanos = [&](double budget, auto&& run) {
    auto t0 = Clock::now();
    while (have_bench && std::chrono::duration<double>(Clock::now() - t0).count() < budget) {
      if (!run()) have_bench = false;
    }
  };
  if (have_bench) {
    std::uint64_t nanos = 0;
    std::size_t calls = 0;
    sum_nanos(seconds / 4, [&] {
      for (const auto& r : mix) {
        auto n = pool.bench(r, 1);
        if (!n) return false;
        nanos += *n;
        ++calls;
      }
      return true;
    });
    if (have_bench && nanos > 0)
      row.in_context_sequential = static_cast<double>(calls) / (static_cast<double>(nanos) / 1e9);
  }

  // (a') the same harness phase with single requests, the protocol without the batch op, on a second
  // process: the before and after of batching, side by side.
  {
    exec::PoolOptions single_options = options;
    single_options.max_batch = 1;
    auto single = exec::AdapterPool::start(config.spec, single_options);
    if (single.ok()) {
      std::vector<exec::DecodeRequest> work;
      for (std::size_t i = 0; i < batch_size; ++i) work.push_back(mix[i % mix.size()]);
      single.value()->decode(std::vector<exec::DecodeRequest>(
          work.begin(), work.begin() + std::min<std::size_t>(128, work.size())));
      auto t0 = Clock::now();
      double self0 = self_cpu_seconds(), children0 = children_cpu_seconds();
      double spent = 0;
      std::size_t n = 0;
      while (spent < seconds) {
        n += single.value()->decode(work).size();
        spent = std::chrono::duration<double>(Clock::now() - t0).count();
      }
      row.single = static_cast<double>(n) / spent;
      row.single_harness_cpu_us =
          (self_cpu_seconds() - self0) * 1e6 / static_cast<double>(std::max<std::size_t>(n, 1));
      row.single_adapter_cpu_us =
          (children_cpu_seconds() - children0) * 1e6 / static_cast<double>(std::max<std::size_t>(n, 1));
      single.value()->shutdown();
    }
  }

  // (a) harness and (b) in context, interleaved: kRounds rounds of the harness for seconds/kRounds and
  // the in-context bench for half that. The machine's speed moves by a third between minutes here
  // (docs/benchmarks.md): a ratio of two phases a minute apart measured the machine as much as the
  // adapter, while slices a second apart see the same machine.
  //   harness: the mix repeated into batches, pipelined through the pool;
  //   in context: one iteration a bench request, whole rounds over the mix, pipelined as the harness
  //   sends (bench_each: the adapter never waits for the next request); the SDK's time is the sum of
  //   the adapter's own nanos (the protocol and pipes are not in it).
  constexpr int kRounds = 8;
  std::vector<exec::DecodeRequest> batch;
  for (std::size_t i = 0; i < batch_size; ++i) batch.push_back(mix[i % mix.size()]);
  pool.decode(std::vector<exec::DecodeRequest>(batch.begin(),
                                               batch.begin() + std::min<std::size_t>(128, batch.size())));
  double elapsed = 0, harness_self_cpu = 0, harness_children_cpu = 0;
  for (int round = 0; round < kRounds; ++round) {
    sum_nanos(seconds / 2 / kRounds, [&] {
      for (const auto& n : pool.bench_each(repeated_mix, 1)) {
        if (!n) return false;
        context_nanos += *n;
        ++context_calls;
      }
      return true;
    });
    auto start = Clock::now();
    double self_before = self_cpu_seconds(), children_before = children_cpu_seconds();
    double spent = 0;
    while (spent < seconds / kRounds) {
      auto results = pool.decode(batch);
      for (const auto& r : results) ++row.outcomes[core::outcome_name(r.outcome)];
      row.requests += results.size();
      spent = std::chrono::duration<double>(Clock::now() - start).count();
    }
    elapsed += spent;
    harness_self_cpu += self_cpu_seconds() - self_before;
    harness_children_cpu += children_cpu_seconds() - children_before;
  }
  if (have_bench && context_nanos > 0)
    row.in_context = static_cast<double>(context_calls) / (static_cast<double>(context_nanos) / 1e9);
  row.seconds = elapsed;
  double per_request = 1e6 / static_cast<double>(std::max<std::size_t>(row.requests, 1));
  row.harness_cpu_us = harness_self_cpu * per_request;
  row.adapter_cpu_us = harness_children_cpu * per_request;
  row.harness = static_cast<double>(row.requests) / elapsed;
  for (const char* bad : {"crash", "timeout", "protocol"}) {
    if (row.outcomes.count(bad)) {
      row.note += (row.note.empty() ? "" : "; ") + std::to_string(row.outcomes[bad]) + " " + bad + " results";
    }
  }
  if (have_bench) {
    row.in_process = static_cast<double>(mix.size()) / sdk_round;
    row.in_process_cpu_us = sdk_cpu_round / static_cast<double>(mix.size()) * 1e6;
  }
  // The C++ decoder over the same subset of payloads.
  if (cpp_round_seconds > 0 && mix.size() == payloads.size())
    row.cpp = static_cast<double>(mix.size()) / cpp_round_seconds;
  pool.shutdown();
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> names = {"cpp", "python", "rust"};
  double seconds = 4;
  std::size_t in_flight = 64, batch_size = 1024;
  std::string config_path = exec::default_adapter_config_path();
  bool protocol_floor = false;
  std::vector<Payload> payloads;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* flag) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "ERROR: " << flag << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--adapters") {
      names = split(value("--adapters"));
    } else if (a == "--config") {
      config_path = value("--config");
    } else if (a == "--seconds") {
      seconds = std::stod(value("--seconds"));
    } else if (a == "--in-flight") {
      in_flight = std::stoul(value("--in-flight"));
    } else if (a == "--batch") {
      batch_size = std::max<std::size_t>(1, std::stoul(value("--batch")));
    } else if (a == "--protocol-floor") {
      protocol_floor = true;
    } else if (a == "--help" || a == "-h") {
      std::cout << "usage: bench_adapters [--adapters cpp,python,rust] [--config adapters/default.json] "
                   "[--seconds 4] [--in-flight 64] [--batch 1024] [--protocol-floor] "
                   "[root:payload.json | DIR ...]\n"
                   "DIR: a folder of <root>/ folders of payloads, e.g. a fuzz run's sent-sample/ "
                   "(crosscheck fuzz --sent-sample N)\n";
      return 0;
    } else if (std::filesystem::is_directory(a)) {
      // A folder in the corpus layout (<root>/<file>: a run's corpus/ or sent-sample/), in sorted order.
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::recursive_directory_iterator(a)) {
        if (e.is_regular_file() && e.path().filename().string().front() != '.') files.push_back(e.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files)
        payloads.push_back({f.parent_path().filename().string(), f.string(), read_file(f)});
    } else {
      auto colon = a.find(':');
      if (colon == std::string::npos) {
        std::cerr << "ERROR: expected root:payload.json or a folder of <root>/ folders, got " << a << "\n";
        return 2;
      }
      payloads.push_back({a.substr(0, colon), a.substr(colon + 1), read_file(a.substr(colon + 1))});
    }
  }
  std::string source = "command line";
  if (payloads.empty()) {
    source = "corpus/examples";
    std::vector<std::filesystem::path> files;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(CROSSCHECK_SOURCE_DIR) + "/corpus/examples")) {
      if (e.path().extension() == ".json") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::string name = f.filename().string();
      payloads.push_back({name.substr(0, name.find('.')), name, read_file(f)});
    }
  }
  if (payloads.empty()) {
    std::cerr << "ERROR: no payloads\n";
    return 2;
  }

  auto schema_path = schema::default_schema_path();
  if (!schema_path) {
    std::cerr << "ERROR: no schema installed (run ./setup install); nothing measured\n";
    return 2;
  }
  auto ir = schema::load_schema(*schema_path);
  if (!ir.ok()) {
    std::cerr << "ERROR: " << ir.error().message() << "\n";
    return 2;
  }
  std::size_t smallest = payloads[0].bytes.size(), largest = 0, total = 0;
  for (const auto& p : payloads) {
    if (!ir->find_root(p.root)) {
      std::cerr << "ERROR: " << p.name << ": unknown root " << p.root << "\n";
      return 2;
    }
    smallest = std::min(smallest, p.bytes.size());
    largest = std::max(largest, p.bytes.size());
    total += p.bytes.size();
  }
  std::cout << "bench_adapters: " << payloads.size() << " payloads from " << source << " (" << smallest << "-"
            << largest << " bytes, mean " << total / payloads.size() << "), 1 process per adapter, "
            << in_flight << " in flight, batches of " << batch_size << ", ~" << seconds << " s each\n"
            << "load average at start: " << load_average() << "\n";

  decoder::Decoder dec(ir.value());
  // seconds/8 over the mix, at least 2 ms a payload (some hundred decodes): a floor of 50 ms a payload
  // made a run's sampled mix of a thousand payloads cost most of a minute here.
  double cpp_round =
      cpp_seconds_per_round(dec, ir.value(), payloads, std::max(0.002, seconds / 8 / payloads.size()));
  std::cout << "in-process C++ decoder: " << fixed(static_cast<double>(payloads.size()) / cpp_round, 0)
            << " req/s over the mix\n";

  auto all = exec::load_adapter_config(config_path, exec::repository_root());
  if (!all.ok()) {
    std::cerr << "ERROR: " << all.error() << "\n";
    return 2;
  }
  auto selected = exec::select_adapters(all.value(), names, {});
  if (!selected.ok()) {
    std::cerr << "ERROR: " << selected.error() << "\n";
    return 2;
  }
  std::vector<Row> rows;
  for (auto config : selected.value()) {
    // The cpp adapter is this build's serve-adapter when the configured build/crosscheck is absent.
    std::string beside = self_dir() + "/crosscheck";
    if (config.spec.name == "cpp" && config.unavailable && std::filesystem::exists(beside)) {
      config.spec.argv[0] = beside;
      config.unavailable.reset();
      std::cout << "cpp adapter: " << beside << " serve-adapter\n";
    }
    rows.push_back(bench_adapter(config, payloads, cpp_round, seconds, in_flight, batch_size));
    std::cout << "  " << rows.back().adapter << ": done\n" << std::flush;
    if (protocol_floor && config.spec.name == "cpp" && !config.unavailable) {
      config.spec.argv.push_back("--echo-input");
      config.spec.name = "cpp-echo";
      rows.push_back(bench_adapter(config, payloads, cpp_round, seconds, in_flight, batch_size));
      std::cout << "  " << rows.back().adapter << ": done\n" << std::flush;
    }
  }

  std::cout << "\n"
            << std::left << std::setw(14) << "adapter" << std::right << std::setw(14) << "harness req/s"
            << std::setw(17) << "in-process req/s" << std::setw(19) << "harness/in-process" << std::setw(17)
            << "in-context req/s" << std::setw(19) << "harness/in-context" << std::setw(14) << "single req/s"
            << std::setw(18) << "single/in-process" << std::setw(15) << "cpp req/s" << std::setw(13)
            << "cpp/SDK"
            << "\n";
  for (const auto& r : rows) {
    std::cout << std::left << std::setw(14) << r.adapter << std::right;
    if (!r.skipped.empty()) {
      std::cout << "  skipped: " << r.skipped << "\n";
      continue;
    }
    std::cout << std::setw(14) << fixed(r.harness, 0) << std::setw(17)
              << (r.in_process > 0 ? fixed(r.in_process, 0) : "-") << std::setw(19)
              << (r.in_process > 0 ? fixed(r.harness / r.in_process, 2) : "-") << std::setw(17)
              << (r.in_context > 0 ? fixed(r.in_context, 0) : "-") << std::setw(19)
              << (r.in_context > 0 ? fixed(r.harness / r.in_context, 2) : "-") << std::setw(14)
              << (r.single > 0 ? fixed(r.single, 0) : "-") << std::setw(18)
              << (r.single > 0 && r.in_process > 0 ? fixed(r.single / r.in_process, 2) : "-") << std::setw(15)
              << (r.cpp > 0 ? fixed(r.cpp, 0) : "-") << std::setw(13)
              << (r.cpp > 0 && r.in_process > 0 ? fixed(r.cpp / r.in_process, 2) : "-") << "\n";
  }
  std::cout << "\n";
  for (const auto& r : rows) {
    if (!r.skipped.empty()) continue;
    std::cout << r.adapter << ": " << r.requests << " requests in " << fixed(r.seconds, 2)
              << " s; CPU per request: harness " << fixed(r.harness_cpu_us, 1) << " us, adapter "
              << fixed(r.adapter_cpu_us, 1) << " us (single requests: harness "
              << fixed(r.single_harness_cpu_us, 1) << " us, adapter " << fixed(r.single_adapter_cpu_us, 1)
              << " us)"
              << (r.in_process > 0 ? " (bench op: " + fixed(r.in_process_cpu_us, 1) + " us CPU, " +
                                         fixed(1e6 / r.in_process, 1) + " us wall)"
                                   : "")
              << (r.in_context_sequential > 0
                      ? "; in context one request at a time: " + fixed(r.in_context_sequential, 0) +
                            " req/s (harness / it " + fixed(r.harness / r.in_context_sequential, 2) + ")"
                      : "")
              << ";";
    for (const auto& [outcome, n] : r.outcomes) std::cout << " " << outcome << " " << n;
    if (!r.note.empty()) std::cout << "; " << r.note;
    std::cout << "\n";
  }
  if (protocol_floor) {
    // The echo row's adapter CPU is every part of a request but the decode; the cpp row's in-context
    // rate is the decode as a run's requests see it. A pipe-line adapter spends both on each request.
    // Checked after the table, so that the rows measured are printed whatever is missing.
    const Row* cpp = nullptr;
    const Row* echo = nullptr;
    for (const auto& r : rows) {
      if (!r.skipped.empty()) continue;
      if (r.adapter == "cpp") cpp = &r;
      if (r.adapter == "cpp-echo") echo = &r;
    }
    if (!cpp || !echo || cpp->in_context <= 0) {
      std::cerr << "ERROR: --protocol-floor needs the cpp adapter (--adapters cpp,...) with its bench op, "
                   "and it could not run\n";
      return 2;
    }
    double decode_us = 1e6 / cpp->in_context;
    std::cout << "protocol floor: the protocol alone costs the adapter " << fixed(echo->adapter_cpu_us, 2)
              << " us and the harness " << fixed(echo->harness_cpu_us, 2)
              << " us of CPU a request; with cpp's in-context decode at " << fixed(decode_us, 2)
              << " us, harness / in-context can reach at most " << fixed(decode_us, 2) << " / ("
              << fixed(decode_us, 2) << " + " << fixed(echo->adapter_cpu_us, 2)
              << ") = " << fixed(decode_us / (decode_us + echo->adapter_cpu_us), 2)
              << " over this transport (measured: " << fixed(cpp->harness / cpp->in_context, 2) << ")\n";
  }
  std::cout << "load average at end: " << load_average() << "\n";
  return 0;
}
