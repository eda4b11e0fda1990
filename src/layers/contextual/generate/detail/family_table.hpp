// family_table.hpp: the generator's families as the table scenario_families.def declares them
// (detail of src/layers/contextual/generate), and the boundary lists they draw requests at.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "layers/contextual/generate/detail/draw.hpp"
#include "layers/contextual/generate/scenario_generator.hpp"

namespace crosscheck::scenario_gen::detail {

inline const std::vector<std::string> kTool = {"tool.before"};
inline const std::vector<std::string> kFinish = {"turn.finish.before"};
inline const std::vector<std::string> kToolAndFinish = {"tool.before", "turn.finish.before"};
/// The generated boundaries with a modify target.
inline const std::vector<std::string> kModifyBoundaries = {"tool.before", "turn.finish.before",
                                                           "workspace.change.before"};
/// The generated boundaries that are not return boundaries.
inline const std::vector<std::string> kNotReturn = {"turn.finish.before", "task.change.before",
                                                    "workspace.change.before"};

using Build = std::function<void(Draw&)>;

struct FamilyDef {
  Family family;
  std::vector<std::string> boundaries;
  Build build;
};

// Each family's body.
#define CROSSCHECK_SCENARIO_FAMILY(build, name, claim, boundaries, text) void build(Draw& d);
#include "layers/contextual/generate/scenario_families.def"
#undef CROSSCHECK_SCENARIO_FAMILY

/// Every family of scenario_families.def, in its order.
const std::vector<FamilyDef>& defs();

}  // namespace crosscheck::scenario_gen::detail
