// structural_layer.cpp: layer 1 as a plug-in (layers/layer.hpp): structural decoding, compared on the
// adapters' payload batches against the C++ structural decoder.
#include <memory>

#include "core/impl_result.hpp"
#include "layers/layer.hpp"

namespace crosscheck::layers::structural {
namespace {

class StructuralLayer final : public Layer {
 public:
  const LayerInfo& info() const override {
    static const LayerInfo i{core::kStructuralLayer, 1, "decoding",
                             "the C++ structural decoder (src/decoder)", "inputs"};
    return i;
  }
  bool enable_on_payloads(core::Layers& layers) const override {
    layers.structural = true;
    return true;
  }
  // Every implementation decodes: the layer of adapter protocol v1 without a "layers" list.
  bool listed_by(const std::vector<std::vector<std::string>>&) const override { return true; }
  std::string payload_note(const std::map<std::string, double>& figures) const override {
    auto it = figures.find("schema-coverage");
    return "schema coverage " + percent_text(it == figures.end() ? 0 : it->second);
  }
};

}  // namespace

std::unique_ptr<Layer> make_structural_layer() { return std::make_unique<StructuralLayer>(); }

}  // namespace crosscheck::layers::structural
