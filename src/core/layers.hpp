// layers.hpp: which comparison layers a run asks for.
#pragma once

namespace crosscheck::core {

/// The comparison layers a run asks for (`crosscheck fuzz --layers`). Each implementation answers
/// the layers its hello lists; the others answer unsupported and are left out of that comparison.
struct Layers {
  bool structural = true;
  bool canonical = false;
};

}  // namespace crosscheck::core
