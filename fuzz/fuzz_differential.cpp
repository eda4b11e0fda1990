// fuzz_differential.cpp: libFuzzer's differential mode: coverage-guided search in the C++ decoder,
// with the inputs it picks decoded by the real SDKs too, asynchronously.
//
// Input layout as fuzz_decode (support.hpp: byte 0 selects the root). Every input is decoded in
// process with a schema-coverage probe (src/coverage/schema_coverage.hpp). An input that exercises a
// new (outcome-deciding node, accepted/rejected) pair or gives the decoder a new outcome signature
// (acceptance and diagnostic codes at abstracted paths) is copied to the sender process
// (differential_sender.hpp), which decodes it with every configured adapter in batches, compares,
// and writes findings atomically into CROSSCHECK_FINDINGS_DIR. The fuzz loop never waits for an
// adapter: a full buffer drops the input and counts it. At exit the buffer is flushed and the
// sender finishes its last batch; both print a summary line.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "coverage/schema_coverage.hpp"
#include "fuzz/differential_sender.hpp"
#include "fuzz/support.hpp"
#include "layers/structural/comparator.hpp"

namespace {

using namespace crosscheck;

struct State {
  campaign::SchemaCoverage coverage{fuzz::real_ir()};
  std::set<std::string, std::less<>> known_names;
  std::set<std::string> signatures;  // root + outcome signature already seen
  fuzz::SenderLink link;
  std::uint64_t fresh = 0;
};

State* state = nullptr;  // never destroyed: the exit flush runs during exit

void collect_names(const schema::Shape& s, std::set<std::string, std::less<>>& names,
                   std::set<const schema::Shape*>& seen) {
  if (!seen.insert(&s).second) return;
  for (const auto& p : s.properties) {
    names.insert(p.wire_name);
    if (p.shape) collect_names(*p.shape, names, seen);
  }
  if (s.items) collect_names(*s.items, names, seen);
  if (s.additional_shape) collect_names(*s.additional_shape, names, seen);
  for (const auto& v : s.variants) {
    if (v) collect_names(*v, names, seen);
  }
}

/// Acceptance and the set of diagnostic codes at paths with indices and unknown member names
/// abstracted (layers::structural::path_shape), as crosscheck fuzz keys its corpus.
std::string signature(const schema::Root& root, const decoder::DecodeResult& r) {
  std::set<std::string> parts;
  for (const auto& d : r.diagnostics)
    parts.insert(d.code + "@" + layers::structural::path_shape(d.path, &state->known_names));
  std::string s = root.snake_name + (r.accepted ? "#A" : "#R");
  for (const auto& p : parts) s += "|" + p;
  return s;
}

void finish_at_exit() {
  if (!state) return;
  std::fprintf(
      stderr,
      "fuzz_differential: %llu inputs with new schema coverage or decoder outcome, %llu handed to the "
      "sender, %llu dropped (buffer full); schema coverage %.1f%% of %zu outcome-deciding nodes\n",
      static_cast<unsigned long long>(state->fresh), static_cast<unsigned long long>(state->link.offered()),
      static_cast<unsigned long long>(state->link.dropped()), state->coverage.percent(),
      state->coverage.tracked());
  state->link.finish();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  // The same executable, started again by SenderLink, is the sender: it never fuzzes.
  if (fuzz::is_differential_sender()) std::exit(fuzz::run_differential_sender());
  fuzz::real_decoder();
  state = new State();
  std::set<const schema::Shape*> seen;
  for (const auto& [name, type] : fuzz::real_ir().types) {
    if (type.shape) collect_names(*type.shape, state->known_names, seen);
  }
  state->link.start();
  std::atexit(finish_at_exit);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (state->link.pending()) state->link.pump();
  const schema::Root& root = fuzz::root_for(data[0]);
  const std::string_view payload(reinterpret_cast<const char*>(data) + 1, size - 1);
  campaign::SchemaCoverage::Probe probe;
  const decoder::DecodeResult r = fuzz::real_decoder().decode(root, payload, &probe);
  bool fresh = state->coverage.finish(probe, r.accepted);
  fresh = state->signatures.insert(signature(root, r)).second || fresh;
  if (fresh) {
    ++state->fresh;
    state->link.offer(root.snake_name, payload);
  }
  return 0;
}
