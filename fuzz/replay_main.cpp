// replay_main.cpp: a main for the fuzz targets in builds without libFuzzer (any compiler).
//
// Usage: <target> [-mutations=N] FILE_OR_DIR...
// Runs every file given, and every regular file in each folder given (sorted, not recursive), once
// through LLVMFuzzerTestOneInput, after LLVMFuzzerInitialize when the target defines it. With
// -mutations=N and a target that defines LLVMFuzzerCustomMutator, each file is also mutated N times
// in a row (seeds 1..N, deterministic) and every mutant is run too: the structure-aware mutator gets
// exercised in the normal build. Other arguments starting with '-' (libFuzzer flags) are ignored.
// Exit status: 0 when every input ran (a violated invariant aborts first), 1 when no input was
// found (an empty corpus must not pass as a replay), 2 for an unreadable path.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" __attribute__((weak)) std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                                                     std::size_t max_size, unsigned int seed);

namespace {

std::mt19937 byte_rng(1);  // for the stand-in of libFuzzer's mutator: deterministic per run

}  // namespace

/// Stand-in for libFuzzer's own byte mutations, for custom mutators that call it: flip, insert or
/// erase one byte.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size) {
  std::size_t at = size ? byte_rng() % size : 0;
  switch (byte_rng() % 3) {
    case 0:
      if (size == 0) break;
      data[at] ^= static_cast<std::uint8_t>(1u << (byte_rng() % 8));
      return size;
    case 1:
      if (size == 0) break;
      std::copy(data + at + 1, data + size, data + at);
      return size - 1;
    default:
      break;
  }
  if (size >= max_size) return size;
  std::copy_backward(data + at, data + size, data + size + 1);
  data[at] = static_cast<std::uint8_t>(byte_rng());
  return size + 1;
}

namespace {

bool read_file(const std::filesystem::path& path, std::vector<std::uint8_t>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

/// Runs `bytes`, then (if asked) its chain of `mutations` mutants.
void run(std::vector<std::uint8_t> bytes, unsigned mutations) {
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  if (!LLVMFuzzerCustomMutator) return;
  constexpr std::size_t kMaxSize = 16384;
  for (unsigned seed = 1; seed <= mutations; ++seed) {
    std::size_t size = std::min(bytes.size(), kMaxSize);
    bytes.resize(kMaxSize);  // room to grow
    bytes.resize(LLVMFuzzerCustomMutator(bytes.data(), size, kMaxSize, seed));
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  unsigned mutations = 0;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("-mutations=", 0) == 0) {
      mutations = static_cast<unsigned>(std::strtoul(arg.c_str() + 11, nullptr, 10));
      continue;
    }
    if (!arg.empty() && arg[0] == '-') continue;
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> in_dir;
      for (const auto& entry : std::filesystem::directory_iterator(arg, ec)) {
        if (entry.is_regular_file()) in_dir.push_back(entry.path());
      }
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (std::filesystem::is_regular_file(arg, ec)) {
      files.emplace_back(arg);
    } else {
      std::fprintf(stderr, "ERROR: %s: no such file or folder\n", arg.c_str());
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "ERROR: no inputs to replay\n");
    return 1;
  }
  if (mutations && !LLVMFuzzerCustomMutator) {
    std::fprintf(stderr, "WARNING: -mutations=%u ignored: this target has no custom mutator\n", mutations);
  }
  for (const auto& file : files) {
    std::vector<std::uint8_t> bytes;
    if (!read_file(file, bytes)) {
      std::fprintf(stderr, "ERROR: cannot read %s\n", file.c_str());
      return 2;
    }
    std::fprintf(stderr, "Running: %s\n", file.c_str());
    run(std::move(bytes), mutations);
  }
  std::fprintf(stderr, "Replayed %zu inputs%s\n", files.size(),
               mutations && LLVMFuzzerCustomMutator
                   ? (" and " + std::to_string(files.size() * mutations) + " mutants").c_str()
                   : "");
  return 0;
}
