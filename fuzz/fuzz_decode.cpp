// fuzz_decode.cpp: raw bytes -> the C++ structural decoder, for the root the first byte selects.
//
// Input: byte 0 selects the root (support.hpp), the rest is the payload, fed unchanged to
// Decoder::decode. Every input is checked against the decoding contract (support.hpp:
// check_decode_invariants); a violation aborts with "INVARIANT VIOLATED". libFuzzer's byte-level
// mutations reach what a structure-aware mutator avoids: broken UTF-8, truncation, stray bytes.
#include <cstddef>
#include <cstdint>

#include "fuzz/support.hpp"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  // Load the schema and build the decoder's index before the first input, not inside it.
  crosscheck::fuzz::real_decoder();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  crosscheck::fuzz::check_selector_input(data, size);
  return 0;
}
