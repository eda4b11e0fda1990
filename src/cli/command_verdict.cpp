// command_verdict.cpp: `crosscheck verdict RUN_DIR`, the verdict crosscheck recorded for a run folder
// (RUN_DIR/verdict.json, written by fuzz, merge and baseline check), printed and as the exit status,
// so that scripts read the verdict instead of deciding it again.
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.hpp"
#include "json/write.hpp"
#include "run/layout.hpp"
#include "run/verdict_file.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

struct VerdictOptions {
  std::string dir;
  bool json = false;
};

int show(const VerdictOptions& o) {
  auto v = run::read_verdict(o.dir);
  if (!v) {
    throw Fatal(o.dir + "/" + run::kVerdictFile +
                ": missing: no verdict recorded (crosscheck fuzz, merge or baseline check writes it when it "
                "ends)");
  }
  if (o.json) {
    std::cout << json::write(verdict::to_json(*v)) << "\n";
  } else {
    std::cout << v->describe() << "\n";
  }
  return v->exit_code();
}

const Registration kVerdict{
    CommandSpec{"verdict", "Print the verdict recorded in a run folder; exit 0 (passed) or 1 (fails)",
                "  crosscheck verdict crosscheck-out\n"
                "  crosscheck verdict --json nightly/run",
                [](CLI::App& sub) {
                  auto o = std::make_shared<VerdictOptions>();
                  sub.add_flag("--json", o->json, "Print the verdict as one JSON object");
                  sub.add_option("run_dir", o->dir, "The run folder")->required();
                  return [o] { return show(*o); };
                }}};

}  // namespace
}  // namespace crosscheck::cli
