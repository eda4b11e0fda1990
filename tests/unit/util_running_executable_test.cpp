// running_executable(): the path that starts this very build, also after its file was replaced (a
// rebuild during a long run), which /proc/self/exe then names "<path> (deleted)".
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "util/running_executable.hpp"

namespace crosscheck {
namespace {

namespace fs = std::filesystem;

TEST(RunningExecutable, IsThisProcessesFileWhileItExists) {
  std::string path = running_executable();
  ASSERT_FALSE(path.empty());
  EXPECT_EQ(fs::path(path), fs::read_symlink("/proc/self/exe"));
  EXPECT_TRUE(fs::exists(path));
}

// The child side of the test below, in a copy of this binary that removes its own file first: the
// path must still start the same build, so the copy starts it once more (listing one test) and exits
// with the outcome, before gtest's main runs.
[[maybe_unused]] const bool kChildRan = [] {
  if (!std::getenv("CROSSCHECK_RUNNING_EXECUTABLE_CHILD")) return false;
  if (!fs::remove(fs::read_symlink("/proc/self/exe"))) std::_Exit(10);
  std::string path = running_executable();
  if (path != "/proc/" + std::to_string(::getpid()) + "/exe") std::_Exit(11);
  ::unsetenv("CROSSCHECK_RUNNING_EXECUTABLE_CHILD");
  std::string again = "'" + path + "' --gtest_list_tests --gtest_filter=RunningExecutable.Is* > /dev/null";
  std::_Exit(std::system(again.c_str()) == 0 ? 0 : 12);
}();

TEST(RunningExecutable, StartsTheSameBuildAfterItsFileIsReplaced) {
  fs::path dir = fs::temp_directory_path() / ("cc-running-exe-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path copy = dir / "unit_tests_copy";
  fs::copy_file(fs::read_symlink("/proc/self/exe"), copy, fs::copy_options::overwrite_existing);
  std::string child = "CROSSCHECK_RUNNING_EXECUTABLE_CHILD=1 '" + copy.string() +
                      "' --gtest_filter=RunningExecutable.ChildAfterItsFileIsGone > '" +
                      (dir / "log").string() + "' 2>&1";
  int status = std::system(child.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << child;
  EXPECT_FALSE(fs::exists(copy)) << "the child did not remove its file";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace crosscheck
