// run/finding_files and run/replay: the one listing of findings/ and the one replay command.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "run/finding_files.hpp"
#include "run/replay.hpp"

namespace crosscheck::run {
namespace {

namespace fs = std::filesystem;

TEST(FindingFiles, PairsOriginalsWithMinimizedAndKeepsOrphans) {
  fs::path dir = fs::temp_directory_path() / ("cc-findings-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* name : {"diverge-b.json", "diverge-b.min.json", "crash-py-a.json", "diverge-c.min.json",
                           ".diverge-d.json.tmp-1", "notes.json", "timeout-rust-e.json.bak"})
    std::ofstream(dir / name) << "{}";
  fs::create_directories(dir / "diverge-x.json");  // a folder is not a finding
  auto listed = list_finding_files(dir);
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0].name, "crash-py-a.json");
  EXPECT_FALSE(listed[0].min_path);
  EXPECT_EQ(listed[1].name, "diverge-b.json");
  ASSERT_TRUE(listed[1].min_path);
  EXPECT_EQ(fs::path(*listed[1].min_path).filename(), "diverge-b.min.json");
  EXPECT_EQ(listed[2].name, "diverge-c.min.json") << "an orphaned minimized finding stands for itself";
  EXPECT_TRUE(listed[2].orphan_minimized);
  EXPECT_TRUE(list_finding_files(dir / "absent").empty());
  fs::remove_all(dir);
}

TEST(FindingFiles, MinimizedPathBesideTheOriginal) {
  EXPECT_EQ(minimized_path_for("out/findings/diverge-ab.json"), "out/findings/diverge-ab.min.json");
  EXPECT_EQ(minimized_path_for("out/findings/diverge-ab.min.json"), "out/findings/diverge-ab.min.json");
  EXPECT_TRUE(is_finding_name("timeout-rust-ab.json"));
  EXPECT_FALSE(is_finding_name("summary.json"));
}

TEST(Replay, QuotedForAnyPath) {
  EXPECT_EQ(replay_command("out/findings/diverge-ab.json"), "crosscheck replay out/findings/diverge-ab.json");
  EXPECT_EQ(replay_command("my run/it's.json"), "crosscheck replay 'my run/it'\\''s.json'");
  EXPECT_EQ(replay_command("-x.json"), "crosscheck replay -- -x.json");
  EXPECT_EQ(replay_command("a\nb $HOME.json"), "crosscheck replay 'a\nb $HOME.json'");
}

}  // namespace
}  // namespace crosscheck::run
