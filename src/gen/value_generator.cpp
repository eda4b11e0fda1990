// value_generator.cpp: ValueGenerator::valid, random attempts checked by the decoder, then a
// minimal fallback (see generator.hpp and shape_generator.hpp).
#include "decoder/decoder.hpp"
#include "gen/generator.hpp"
#include "gen/rng.hpp"
#include "gen/shape_facts.hpp"
#include "gen/shape_generator.hpp"

namespace crosscheck::gen {

namespace {

constexpr std::size_t kRandomAttempts = 8;
constexpr std::size_t kMinimalAttempts = 8;

}  // namespace

ValueGenerator::ValueGenerator(const schema::Ir& ir, GenOptions options)
    : ir_(ir), options_(options), facts_(std::make_shared<const ShapeFacts>(ir)) {}

json::Value ValueGenerator::valid(const schema::Root& root, std::uint64_t seed, GenReport* report) const {
  GenReport local;
  GenReport& r = report ? *report : local;
  r = GenReport{};
  schema::ShapePtr shape = ir_.root_shape(root);
  if (!shape) return json::Value::null();
  Rng rng(mix_seed(seed, 0));
  std::optional<json::Value> last;
  for (std::size_t i = 0; i < kRandomAttempts + kMinimalAttempts; ++i) {
    const bool minimal = i >= kRandomAttempts;
    r.attempts = i + 1;
    r.fallback = minimal;
    ShapeGenerator generator(*facts_, options_, rng, minimal);
    std::optional<json::Value> value = generator.generate({shape.get()}, options_.max_depth);
    if (!value) continue;
    const decoder::DecodeResult result = facts_->decoder().check(root, *value);
    if (result.accepted && !result.has_warning()) {
      r.accepted = true;
      return std::move(*value);
    }
    last = std::move(value);
  }
  return last ? std::move(*last) : json::Value::null();
}

}  // namespace crosscheck::gen
