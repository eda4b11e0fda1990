// main.cpp: the crosscheck command line. Subcommands live in command_<verb>.cpp.
#include <csignal>
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
std::vector<CommandSpec>& registry() {
  static std::vector<CommandSpec> commands;
  return commands;
}
}  // namespace crosscheck::cli

int main(int argc, char** argv) {
  using namespace crosscheck;
  std::signal(SIGPIPE, SIG_IGN);  // a dead adapter must not kill the harness
  CLI::App app{"crosscheck: differential fuzzing of the Agent Hooks Protocol SDKs"};
  app.set_version_flag("--version", std::string("crosscheck ") + CROSSCHECK_VERSION);
  app.require_subcommand(1);
  std::function<int()> action;
  for (auto& spec : cli::registry()) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.summary);
    if (spec.examples && *spec.examples) sub->footer(std::string("Examples:\n") + spec.examples);
    auto run = std::make_shared<std::function<int()>>(spec.setup(*sub));
    sub->callback([&action, run] { action = *run; });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitClean : kExitUsage;
  }
  try {
    return action ? action() : kExitUsage;
  } catch (const Fatal& e) {
    std::cerr << "ERROR: " << e.what() << "\n";
    return e.code();
  } catch (const std::exception& e) {
    std::cerr << "ERROR: internal: " << e.what() << "\n";
    return kExitUsage;
  }
}
