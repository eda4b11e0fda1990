// layer_registry.hpp: the registered comparison layers: the built-in ones of layers.def, in order,
// then those registered at run time (a test's dummy layer). Everything that runs, merges or reports
// layers asks here instead of naming one.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "layers/layer.hpp"

namespace crosscheck::layers {

/// Every registered layer, in the order a run takes them.
std::vector<const Layer*> registered_layers();
/// nullptr when no layer has that name.
const Layer* find_layer(std::string_view name);
/// The names, joined by ", " (error messages list the known layers).
std::string layer_names();
/// Registers a layer at run time, after the built-in ones; a name already registered is a logic error.
void register_layer(std::unique_ptr<Layer> layer);
/// Removes a layer registered at run time (a test's, when it is done).
void unregister_layer(std::string_view name);

}  // namespace crosscheck::layers
