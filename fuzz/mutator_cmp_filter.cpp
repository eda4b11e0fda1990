// mutator_cmp_filter.cpp: libFuzzer's CMP-trace callbacks, skipped while fuzz_structured's custom
// mutator runs (CMake fuzz builds only; linked with -Wl,--wrap for each callback, fuzz/CMakeLists.txt).
//
// Why: the custom mutator generates and mutates instances with gen::, whose own checks run the
// decoder and JSON code that the fuzz build instruments. Each comparison there called back into
// libFuzzer and filed its operands in the table of recent compares, though none of them came from
// the input under test: about a tenth of the target's time went to those callbacks
// (docs/benchmarks.md, 2026-12-06). libFuzzer's own memcmp/strcmp hooks already ignore what runs
// outside the test callback; this does the same for the compiler-inserted ones. Outside the mutator
// every callback goes to libFuzzer unchanged, as a tail call, so the caller's PC that libFuzzer reads
// (for -use_value_profile) is still the instrumented site's.
#include <cstdint>

extern "C" {

// One wrapper per callback that fuzz/CMakeLists.txt names in -Wl,--wrap: a name wrapped there without
// a wrapper here fails the link; a wrapper here not wrapped there is never called.

// Set by fuzz_structured.cpp's LLVMFuzzerCustomMutator while it runs (one thread: libFuzzer's).
extern bool crosscheck_fuzz_in_custom_mutator;

#define CROSSCHECK_FILTERED_CMP(name, type)                                                           \
  void __real___sanitizer_cov_trace_##name(type a, type b);                                           \
  __attribute__((no_sanitize("coverage"))) void __wrap___sanitizer_cov_trace_##name(type a, type b) { \
    if (crosscheck_fuzz_in_custom_mutator) return;                                                    \
    [[clang::musttail]] return __real___sanitizer_cov_trace_##name(a, b);                             \
  }

CROSSCHECK_FILTERED_CMP(cmp1, std::uint8_t)
CROSSCHECK_FILTERED_CMP(cmp2, std::uint16_t)
CROSSCHECK_FILTERED_CMP(cmp4, std::uint32_t)
CROSSCHECK_FILTERED_CMP(cmp8, std::uint64_t)
CROSSCHECK_FILTERED_CMP(const_cmp1, std::uint8_t)
CROSSCHECK_FILTERED_CMP(const_cmp2, std::uint16_t)
CROSSCHECK_FILTERED_CMP(const_cmp4, std::uint32_t)
CROSSCHECK_FILTERED_CMP(const_cmp8, std::uint64_t)

#undef CROSSCHECK_FILTERED_CMP

void __real___sanitizer_cov_trace_switch(std::uint64_t value, std::uint64_t* cases);
__attribute__((no_sanitize("coverage"))) void __wrap___sanitizer_cov_trace_switch(std::uint64_t value,
                                                                                  std::uint64_t* cases) {
  if (crosscheck_fuzz_in_custom_mutator) return;
  [[clang::musttail]] return __real___sanitizer_cov_trace_switch(value, cases);
}
}
