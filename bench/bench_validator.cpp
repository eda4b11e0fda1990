// bench_validator: the C++ reference canonical validator (src/canonical/) on real-schema payloads.
//
// Prints documents/s and MB/s of parse + validate on one core over the payloads given (default:
// corpus/examples and bench/payloads, each validated against the document its file name starts
// with), and the Python SDK's in-process rate on the same payloads when the set-up venv is there
// (agenthooksprotocol.runtime.Validator, timed inside Python), for the ratio. Not a test: figures
// only, and they mean little on a busy machine (the load average is printed beside them).
// Usage: bench_validator [--schema PATH] [--seconds N] [document:payload.json ...]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "canonical/canonical_validator.hpp"
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
         "docs = [(l.split()[0], json.load(open(l.split()[1]))) for l in open(sys.argv[1])]\n"
         "n, start = 0, time.perf_counter()\n"
         "while time.perf_counter() - start < float(sys.argv[2]):\n"
         "    for kind, value in docs:\n"
         "        try: v.validate(kind, value)\n"
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
  std::vector<std::pair<std::string, std::string>> docs;  // document, bytes
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--schema" && i + 1 < argc) {
      schema_path = argv[++i];
    } else if (a == "--seconds" && i + 1 < argc) {
      seconds = std::stod(argv[++i]);
    } else if (auto colon = a.find(':'); colon != std::string::npos) {
      docs.emplace_back(a.substr(0, colon), read_file(a.substr(colon + 1)));
    } else {
      std::cerr << "ERROR: expected document:payload.json, got " << a << "\n";
      return 2;
    }
  }
  if (schema_path.empty()) {
    auto found = schema::default_schema_path();
    if (!found) {
      std::cerr
          << "ERROR: no schema installed (run ./setup install) and no --schema given; nothing measured\n";
      return 2;
    }
    schema_path = *found;
  }
  auto ir = schema::load_schema(schema_path);
  if (!ir.ok()) {
    std::cerr << "ERROR: " << ir.error().message() << "\n";
    return 2;
  }
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
  std::size_t bytes = 0, count = 0, valid = 0;
  auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    for (const auto& [document, payload] : docs) {
      auto r = validator->validate(document, payload);
      if (!r) {
        std::cerr << "ERROR: unknown document " << document << "\n";
        return 2;
      }
      valid += r->valid;
      bytes += payload.size();
      ++count;
    }
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  double rate = static_cast<double>(count) / elapsed;
  std::printf(
      "canonical validator (C++ reference): %zu payloads, %.0f documents/s, %.1f MB/s (%zu of %zu valid)\n",
      docs.size(), rate, static_cast<double>(bytes) / elapsed / 1e6, valid, count);
  double py = python_rate(docs, seconds);
  if (py > 0) {
    std::printf("python SDK runtime.Validator: %.0f documents/s; C++ / python = %.1fx\n", py, rate / py);
  } else {
    std::printf("python SDK runtime.Validator: not measured (no .venv; run ./setup install)\n");
  }
  std::printf("load average: %s\n", bench::load_average().c_str());
  return 0;
}
