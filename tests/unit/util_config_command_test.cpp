// The expansion and lookup rules adapters/default.json and adapters/clients.json share.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "util/config_command.hpp"

namespace crosscheck {
namespace {

TEST(ConfigCommand, ExpandsRootAndVariablesAndCollectsTheMissingOnes) {
  ::setenv("CROSSCHECK_TEST_SET", "/opt/sdk", 1);
  ::setenv("CROSSCHECK_TEST_EMPTY", "", 1);
  ::unsetenv("CROSSCHECK_TEST_UNSET");
  std::vector<std::string> missing;
  EXPECT_EQ(expand_config_text("${ROOT}/bin:${CROSSCHECK_TEST_SET}/x", "/repo", &missing),
            "/repo/bin:/opt/sdk/x");
  EXPECT_TRUE(missing.empty());
  EXPECT_EQ(expand_config_text("a${CROSSCHECK_TEST_UNSET}b${CROSSCHECK_TEST_EMPTY}c", "/repo", &missing),
            "abc");
  EXPECT_EQ(missing, (std::vector<std::string>{"CROSSCHECK_TEST_UNSET", "CROSSCHECK_TEST_EMPTY"}));
  // An unterminated reference and a lone '$' are text.
  EXPECT_EQ(expand_config_text("$x ${ROOT", "/repo"), "$x ${ROOT");
}

TEST(ConfigCommand, FindsProgramsByPathOrInPathFoldersOnlyWhenExecutable) {
  auto dir = std::filesystem::temp_directory_path() / "crosscheck_config_command_test";
  std::filesystem::create_directories(dir);
  auto tool = dir / "tool";
  std::ofstream(tool) << "#!/bin/sh\n";
  std::filesystem::permissions(tool,
                               std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_FALSE(program_exists(tool.string()));  // not executable
  std::filesystem::permissions(tool, std::filesystem::perms::owner_all);
  EXPECT_TRUE(program_exists(tool.string()));
  EXPECT_TRUE(program_exists("sh"));
  EXPECT_FALSE(program_exists("crosscheck-no-such-program"));
  EXPECT_FALSE(program_exists((dir / "absent").string()));
  std::filesystem::remove_all(dir);
}

TEST(ConfigCommand, NamesTheFirstUnsetVariable) {
  ::setenv("CROSSCHECK_TEST_SET", "1", 1);
  ::unsetenv("CROSSCHECK_TEST_UNSET");
  EXPECT_EQ(first_unset_variable({}), "");
  EXPECT_EQ(first_unset_variable({"CROSSCHECK_TEST_SET"}), "");
  EXPECT_EQ(first_unset_variable({"CROSSCHECK_TEST_SET", "CROSSCHECK_TEST_UNSET"}), "CROSSCHECK_TEST_UNSET");
}

}  // namespace
}  // namespace crosscheck
