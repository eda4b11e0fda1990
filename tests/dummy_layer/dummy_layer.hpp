// dummy_layer.hpp: a comparison layer defined outside src/, as a fourth layer would be, for the test
// that shows fuzz, merge, report and verdict carry a registered layer without other changes
// (tests/unit/fuzz_run_fuzz_run_test.cpp).
//
// Layer "dummy", with batches of its own: batch b compares a constant probe on two stand-in
// implementations, "cpp" (its reference: accepts) and "dummy-sdk" (rejects), and writes one acceptance
// finding of layer "dummy" through src/run, with its progress and finding events; summary.json gets
// its counts; its own file dummy-batches.json (the batches it ran) is summed by merge.
#pragma once

#include <memory>

#include "layers/layer.hpp"

namespace crosscheck::dummy_layer {

inline constexpr const char* kName = "dummy";
inline constexpr const char* kOwnFile = "dummy-batches.json";

std::unique_ptr<layers::Layer> make_dummy_layer();

}  // namespace crosscheck::dummy_layer
