// client_choice.cpp: the SDK clients (or servers) a command names.
#include "interop/client_choice.hpp"

#include <algorithm>
#include <iostream>

#include "core/impl_result.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario {

std::vector<std::string> client_names(const std::string& text) {
  std::vector<std::string> names;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string name = text.substr(start, comma - start);
    if (!name.empty() && name != core::kReferenceImplementation) names.push_back(std::move(name));
    start = comma + 1;
  }
  return names;
}

std::vector<scenario::ClientSpec> pick_clients(const std::string& config_path,
                                               const std::vector<std::string>& names, bool servers) {
  std::string path = config_path.empty() ? scenario::default_client_config_path() : config_path;
  auto all = scenario::load_client_config(path, scenario::checkout_dir());
  if (!all.ok()) throw Fatal(all.error());
  auto selected = scenario::select_clients(all.value(), names);
  if (!selected.ok()) throw Fatal(selected.error());
  std::vector<scenario::ClientSpec> out;
  for (auto& c : selected.value()) {
    if (servers && !c.unavailable && c.server_argv.empty())
      c.unavailable = "it names no server command (serverArgv, or the adapterJson's server)";
    if (c.unavailable) {
      if (!names.empty())
        throw Fatal("client '" + c.name + "' is unavailable: " + *c.unavailable, kExitAdapter);
      std::cerr << "WARNING: client '" << c.name << "' is unavailable: " << *c.unavailable << "\n";
      continue;
    }
    out.push_back(std::move(c));
  }
  if (out.empty()) throw Fatal("no client is available (see crosscheck scenarios run --help)", kExitAdapter);
  return out;
}

}  // namespace crosscheck::scenario
