// Tests of the fuzz run's corpus (campaign/corpus_sample.hpp): its files are written by a writer
// thread, each distinct entry once, within the folder's bound; flush() waits for them; a write error
// reaches flush() and the next keep(); a resumed run counts the files it finds and does not count an
// entry again when it is kept a second time; the writer's queue never holds more than its bound, and
// an entry it turns away is not counted as a file, so it is queued when kept again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "campaign/corpus_sample.hpp"
#include "schema/sha256.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

class CorpusSampleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("crosscheck-corpus-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base_);
    fs::create_directories(base_);
  }
  void TearDown() override { fs::remove_all(base_); }

  static std::set<std::string> files_of(const fs::path& dir) {
    std::set<std::string> names;
    if (!fs::exists(dir)) return names;
    for (const auto& f : fs::directory_iterator(dir)) names.insert(f.path().filename().string());
    return names;
  }

  static std::string entry(int k) { return "{\"k\":" + std::to_string(k) + "}"; }

  fs::path base_;
};

TEST_F(CorpusSampleTest, EachDistinctEntryIsOneFileNamedByItsHashOnceFlushed) {
  CorpusSample corpus((base_ / "corpus").string(), 1000);
  for (int k = 0; k < 300; ++k) corpus.keep("a", entry(k));
  for (int k = 0; k < 300; k += 3) corpus.keep("a", entry(k));  // copies: no file, no count
  corpus.keep("b", entry(7));
  corpus.flush();
  auto a = files_of(base_ / "corpus" / "a");
  ASSERT_EQ(a.size(), 300u);
  for (int k = 0; k < 300; k += 37) {
    std::string name = schema::sha256_hex(entry(k)).substr(0, 40);
    ASSERT_TRUE(a.count(name)) << name;
    std::ifstream in(base_ / "corpus" / "a" / name, std::ios::binary);
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(content, entry(k));
  }
  EXPECT_EQ(files_of(base_ / "corpus" / "b").size(), 1u);
  // No temporary file is left behind, and the memory sample has the entries too.
  for (const auto& name : a) EXPECT_NE(name.front(), '.') << name;
  EXPECT_EQ(corpus.pick("b", 0), entry(7));
}

TEST_F(CorpusSampleTest, TheFolderBoundHoldsPerRoot) {
  CorpusSample corpus((base_ / "corpus").string(), 10);
  for (int k = 0; k < 50; ++k) corpus.keep("a", entry(k));
  for (int k = 0; k < 5; ++k) corpus.keep("b", entry(k));
  corpus.flush();
  EXPECT_EQ(files_of(base_ / "corpus" / "a").size(), 10u);
  EXPECT_EQ(files_of(base_ / "corpus" / "b").size(), 5u);
  EXPECT_EQ(corpus.in_memory(), 55u);  // the memory sample keeps what the folder has no room for
}

TEST_F(CorpusSampleTest, AResumedRunCountsTheFilesItFindsAndKeepsAnOldEntryOnlyOnce) {
  {
    CorpusSample first((base_ / "corpus").string(), 8);
    for (int k = 0; k < 5; ++k) first.keep("a", entry(k));
    first.flush();
  }
  CorpusSample resumed((base_ / "corpus").string(), 8);
  EXPECT_EQ(resumed.load_folder(), 5u);
  for (int k = 0; k < 5; ++k) resumed.keep("a", entry(k));  // already on disk: not counted again
  for (int k = 5; k < 20; ++k) resumed.keep("a", entry(k));
  resumed.flush();
  EXPECT_EQ(files_of(base_ / "corpus" / "a").size(), 8u);
}

TEST_F(CorpusSampleTest, AFolderOnlyCorpusWritesFilesAndKeepsNoMemorySample) {
  CorpusSample folder_only((base_ / "sent-sample").string(), 100, false);
  for (int k = 0; k < 20; ++k) folder_only.keep("a", entry(k));
  folder_only.flush();
  EXPECT_EQ(files_of(base_ / "sent-sample" / "a").size(), 20u);
  EXPECT_EQ(folder_only.in_memory(), 0u);
  EXPECT_EQ(folder_only.pick("a", 0), "");
}

TEST_F(CorpusSampleTest, TheWriteQueueHoldsAtMostItsFilesAndATurnedAwayEntryIsQueuedWhenKeptAgain) {
  // The bound docs/memory.md measured: a full queue holds at most 4 MiB of inputs.
  EXPECT_LE(CorpusSample::kWriteQueueBytes, std::size_t{4} << 20);
  const std::size_t bound = CorpusSample::kWriteQueueFiles;
  const std::size_t kept = bound + bound / 2, folder_bound = bound + bound / 4;
  // A writer that never runs: the queue fills as on a machine with no idle core.
  CorpusSample corpus((base_ / "corpus").string(), folder_bound, true, CorpusSample::Writer::kFlushOnly);
  for (std::size_t k = 0; k < kept; ++k) {
    corpus.keep("a", entry(static_cast<int>(k)));
    ASSERT_LE(corpus.queued().first, bound) << "after " << k + 1 << " entries";
  }
  EXPECT_EQ(corpus.queued().first, bound);
  corpus.flush();
  EXPECT_EQ(corpus.queued().first, 0u);
  EXPECT_EQ(files_of(base_ / "corpus" / "a").size(), bound);
  // Kept again: the written ones are copies; the ones turned away were not counted as files, so they
  // are queued now, up to the folder's bound.
  for (std::size_t k = 0; k < kept; ++k) corpus.keep("a", entry(static_cast<int>(k)));
  EXPECT_EQ(corpus.queued().first, folder_bound - bound);
  corpus.flush();
  auto a = files_of(base_ / "corpus" / "a");
  EXPECT_EQ(a.size(), folder_bound);
  for (std::size_t k = 0; k < kept; ++k) {
    EXPECT_EQ(a.count(schema::sha256_hex(entry(static_cast<int>(k))).substr(0, 40)),
              k < folder_bound ? 1u : 0u)
        << "entry " << k;
  }
}

TEST_F(CorpusSampleTest, TheWriteQueueHoldsAtMostItsBytes) {
  const std::size_t size = 40000, count = 2 * (CorpusSample::kWriteQueueBytes / size);
  auto big = [size](std::size_t k) {
    return std::to_string(k) + std::string(size - std::to_string(k).size(), 'x');
  };
  CorpusSample corpus((base_ / "corpus").string(), 4096, true, CorpusSample::Writer::kFlushOnly);
  for (std::size_t k = 0; k < count; ++k) {
    corpus.keep("a", big(k));
    ASSERT_LE(corpus.queued().second, CorpusSample::kWriteQueueBytes) << "after " << k + 1 << " entries";
  }
  EXPECT_EQ(corpus.queued().first, CorpusSample::kWriteQueueBytes / size);
  corpus.flush();
  for (std::size_t k = 0; k < count; ++k) corpus.keep("a", big(k));  // the rest fits now
  corpus.flush();
  EXPECT_EQ(files_of(base_ / "corpus" / "a").size(), count);
}

TEST_F(CorpusSampleTest, AWriteErrorReachesFlushAndTheNextKeep) {
  // The corpus folder's parent is a regular file: no directory or file can be made under it.
  std::ofstream(base_ / "not-a-folder") << "x";
  CorpusSample corpus((base_ / "not-a-folder" / "corpus").string(), 100);
  corpus.keep("a", entry(1));
  try {
    corpus.flush();
    FAIL() << "flush() did not report the failed write";
  } catch (const Fatal& e) {
    EXPECT_NE(std::string(e.what()).find("not-a-folder"), std::string::npos) << e.what();
  }
  EXPECT_THROW(corpus.keep("a", entry(2)), Fatal);
}

}  // namespace
}  // namespace crosscheck::campaign
