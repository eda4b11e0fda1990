// layer_registry.cpp: the built-in layers from layers.def, and those registered at run time.
#include "layers/registry/layer_registry.hpp"

#include <algorithm>
#include <stdexcept>

// Each built-in layer's factory, declared from its line in layers.def.
#define CROSSCHECK_LAYER(ns, factory)                     \
  namespace crosscheck::ns {                              \
  std::unique_ptr<::crosscheck::layers::Layer> factory(); \
  }
#include "layers/registry/layers.def"
#undef CROSSCHECK_LAYER

namespace crosscheck::layers {
namespace {

std::vector<std::unique_ptr<Layer>>& table() {
  static std::vector<std::unique_ptr<Layer>> list = [] {
    std::vector<std::unique_ptr<Layer>> out;
#define CROSSCHECK_LAYER(ns, factory) out.push_back(::crosscheck::ns::factory());
#include "layers/registry/layers.def"
#undef CROSSCHECK_LAYER
    return out;
  }();
  return list;
}

}  // namespace

std::vector<const Layer*> registered_layers() {
  std::vector<const Layer*> out;
  for (const auto& l : table()) out.push_back(l.get());
  return out;
}

const Layer* find_layer(std::string_view name) {
  for (const auto& l : table())
    if (l->info().name == name) return l.get();
  return nullptr;
}

std::string layer_names() {
  std::string out;
  for (const auto& l : table()) out += (out.empty() ? "" : ", ") + l->info().name;
  return out;
}

void register_layer(std::unique_ptr<Layer> layer) {
  if (find_layer(layer->info().name))
    throw std::logic_error("layer '" + layer->info().name + "' is registered");
  table().push_back(std::move(layer));
}

void unregister_layer(std::string_view name) {
  auto& t = table();
  t.erase(std::remove_if(t.begin(), t.end(), [&](const auto& l) { return l->info().name == name; }), t.end());
}

}  // namespace crosscheck::layers
