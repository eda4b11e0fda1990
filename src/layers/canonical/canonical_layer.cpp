// canonical_layer.cpp: layer 2 as a plug-in (layers/layer.hpp): canonical JSON Schema validation,
// compared on the adapters' payload batches against the C++ canonical validator.
#include <algorithm>
#include <memory>

#include "core/impl_result.hpp"
#include "layers/layer.hpp"

namespace crosscheck::layers::canonical {
namespace {

class CanonicalLayer final : public Layer {
 public:
  const LayerInfo& info() const override {
    static const LayerInfo i{core::kCanonicalLayer, 2, "JSON Schema validation",
                             "the C++ canonical validator (src/canonical)", "inputs"};
    return i;
  }
  bool enable_on_payloads(core::Layers& layers) const override {
    layers.canonical = true;
    return true;
  }
  bool listed_by(const std::vector<std::vector<std::string>>& implementation_layers) const override {
    return std::any_of(implementation_layers.begin(), implementation_layers.end(), [](const auto& listed) {
      return std::find(listed.begin(), listed.end(), core::kCanonicalLayer) != listed.end();
    });
  }
  std::string payload_note(const std::map<std::string, double>& figures) const override {
    auto it = figures.find("canonical-coverage");
    return it == figures.end() ? "" : "canonical coverage " + percent_text(it->second);
  }
};

}  // namespace

std::unique_ptr<Layer> make_canonical_layer() { return std::make_unique<CanonicalLayer>(); }

}  // namespace crosscheck::layers::canonical
