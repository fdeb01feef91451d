// The output folder's locks: one whole batch at a time; a class's shards side by side, each part
// once.
#include "batch/batch_lock.hpp"

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::BatchLock::take") {
  TempFolder root;
  const fs::path out = root.path / "grades";
  std::vector<std::string> log;
  const auto say = [&](const std::string& line) { log.push_back(line); };

  SUBCASE("makes the folder and its results/; a second batch is refused while the first holds it") {
    auto first = BatchLock::take(out, std::nullopt, say);
    REQUIRE(first.has_value());
    CHECK(fs::is_directory(out / "results"));
    auto second = BatchLock::take(out, std::nullopt, say);
    REQUIRE_FALSE(second.has_value());
    CHECK(second.error().message == "another `cugrade grade` is writing to " + out.string() + "; wait for it to end");
    CHECK(BatchLock::take(out, Shard{1, 2}, say).has_value() == false);  // a shard beside a whole class
  }
  SUBCASE("released when it ends") {
    { auto first = BatchLock::take(out, std::nullopt, say); REQUIRE(first.has_value()); }
    CHECK(BatchLock::take(out, std::nullopt, say).has_value());
  }
  SUBCASE("two parts of a class side by side, but no whole class beside them") {
    auto one = BatchLock::take(out, Shard{1, 2}, say);
    auto two = BatchLock::take(out, Shard{2, 2}, say);
    CHECK(one.has_value());
    CHECK(two.has_value());
    CHECK_FALSE(BatchLock::take(out, std::nullopt, say).has_value());
    CHECK(log.empty());
  }
  SUBCASE("an output folder that cannot be made") {
    write_text(root.path / "file", "not a folder");
    auto lock = BatchLock::take(root.path / "file" / "grades", std::nullopt, say);
    REQUIRE_FALSE(lock.has_value());
    CHECK(lock.error().message.starts_with("cannot create the output folder "));
  }
}
