#include <doctest/doctest.h>

#include <filesystem>
#include <sys/stat.h>

#include "core/work_dir.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

TEST_CASE("core::make_work_dir") {
  SUBCASE("a fresh private folder named after the prefix") {
    const fs::path made = make_work_dir({}, "cugrade-test-");
    REQUIRE(fs::is_directory(made));
    CHECK(made.filename().string().starts_with("cugrade-test-"));
    CHECK(made.parent_path() == fs::temp_directory_path());
    struct stat info {};
    REQUIRE(::stat(made.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0700);  // other users cannot read a student's files
    const fs::path second = make_work_dir({}, "cugrade-test-");
    CHECK(second != made);
    fs::remove_all(made);
    fs::remove_all(second);
  }
  SUBCASE("a requested folder is created, nested, and used as it is") {
    const fs::path base = make_work_dir({}, "cugrade-test-");
    const fs::path wanted = base / "a" / "b";
    CHECK(make_work_dir(wanted, "ignored-") == wanted);
    CHECK(fs::is_directory(wanted));
    fs::remove_all(base);
  }
}
