// cache_file: a section of a small JSON file kept between runs, read back only when whole and of
// the format asked for; a file that cannot be read or written keeps nothing and is no error.
#include "core/cache_file.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "core/work_dir.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

TEST_CASE("core::cache_file") {
  const fs::path dir = make_work_dir({}, "cugrade-cache-file-test-");
  const fs::path file = dir / "cache" / "kept.json";  // its folder does not exist yet

  SUBCASE("written, then read back; other sections and formats read as empty") {
    write_cache_section(file, 2, "seconds", {{"a", 1.5}});
    CHECK(read_cache_section(file, 2, "seconds") == nlohmann::json{{"a", 1.5}});
    CHECK(read_cache_section(file, 2, "counters").empty());
    CHECK(read_cache_section(file, 1, "seconds").empty());
  }
  SUBCASE("a missing, cut or foreign file reads as empty") {
    CHECK(read_cache_section(file, 1, "seconds").empty());
    fs::create_directories(file.parent_path());
    std::ofstream(file) << R"({"format": 1, "seconds": {"a": )";
    CHECK(read_cache_section(file, 1, "seconds").empty());
    std::ofstream(file) << R"({"format": 1, "seconds": [1, 2]})";
    CHECK(read_cache_section(file, 1, "seconds").empty());
    std::ofstream(file) << R"(["format", 1])";
    CHECK(read_cache_section(file, 1, "seconds").empty());
  }
  SUBCASE("a file that cannot be written keeps nothing, quietly") {
    fs::create_directories(file);  // a folder where the file should be
    write_cache_section(file, 1, "seconds", {{"a", 1.0}});
    CHECK(fs::is_directory(file));
    CHECK(read_cache_section(file, 1, "seconds").empty());
  }
  fs::remove_all(dir);
}
