// entry_order: the last run's seconds kept in a file, and the entries started longest first.
#include "pipeline/entry_order.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "core/work_dir.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

TEST_CASE("pipeline::longest_first") {
  const std::vector<std::string> keys{"a", "b", "c", "d", "e"};
  SUBCASE("with no seconds kept, the given order") {
    CHECK(longest_first(keys, {}) == std::vector<std::size_t>{0, 1, 2, 3, 4});
  }
  SUBCASE("entries never seen first, in their order; then the longest first, equals in their order") {
    const std::map<std::string, double> seconds{{"a", 1.0}, {"c", 30.0}, {"d", 1.0}, {"b", 0.0}};
    CHECK(longest_first(keys, seconds) == std::vector<std::size_t>{4, 2, 0, 3, 1});
  }
}

TEST_CASE("pipeline::entry seconds file") {
  const fs::path dir = make_work_dir({}, "cugrade-entry-order-test-");
  const fs::path file = dir / "cache" / "selftest-seconds.json";

  SUBCASE("kept and read back; a later run's keys are added to the earlier's") {
    save_entry_seconds(file, {{"cuda|matmul|reference", 7.25}, {"cuda|vecadd|bad/x.cu", 1.0}});
    save_entry_seconds(file, {{"cuda|vecadd|bad/x.cu", 2.5}});
    const auto seconds = load_entry_seconds(file);
    CHECK(seconds.size() == 2);
    CHECK(seconds.at("cuda|matmul|reference") == doctest::Approx(7.25));
    CHECK(seconds.at("cuda|vecadd|bad/x.cu") == doctest::Approx(2.5));
  }
  SUBCASE("a missing, damaged or foreign file keeps nothing, and is written over") {
    CHECK(load_entry_seconds(file).empty());
    fs::create_directories(file.parent_path());
    std::ofstream(file) << "{\"format\": 1, \"seconds\": {\"a\": ";
    CHECK(load_entry_seconds(file).empty());
    std::ofstream(file) << R"({"format": 7, "seconds": {"a": 1}})";
    CHECK(load_entry_seconds(file).empty());
    std::ofstream(file) << R"({"format": 1, "seconds": {"a": "slow", "b": -1, "c": 3}})";
    CHECK(load_entry_seconds(file) == std::map<std::string, double>{{"c", 3.0}});
    save_entry_seconds(file, {{"a", 1.0}});
    CHECK(load_entry_seconds(file) == std::map<std::string, double>{{"a", 1.0}, {"c", 3.0}});
  }
  SUBCASE("a file that cannot be written is no error") {
    fs::create_directories(dir / "cache");
    fs::create_directories(file);  // a folder where the file should be
    save_entry_seconds(file, {{"a", 1.0}});
    CHECK(load_entry_seconds(file).empty());
  }
  fs::remove_all(dir);
}
