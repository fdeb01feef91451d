// A student id becomes a folder name by a stable mapping that never gives two students one folder.
#include "batch/student_paths.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "batch/batch_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::student_path_name") {
  SUBCASE("plain ids are kept as they are") {
    CHECK(student_path_name("alice") == "alice");
    CHECK(student_path_name("s001-bob.smith_2") == "s001-bob.smith_2");
    CHECK(student_path_name(std::string(64, 'a')) == std::string(64, 'a'));
  }
  SUBCASE("any other byte as %XX") {
    CHECK(student_path_name("bob smith") == "bob%20smith");
    CHECK(student_path_name("o'brien \"x\"") == "o%27brien%20%22x%22");
    CHECK(student_path_name("a\nb") == "a%0Ab");
    CHECK(student_path_name("$(id)`x`") == "%24%28id%29%60x%60");
    CHECK(student_path_name("\xff\xfe") == "%FF%FE");
    CHECK(student_path_name("ünal") == "%C3%BCnal");
    CHECK(student_path_name("50%") == "50%25");
    CHECK(student_path_name("a~b") == "a%7Eb");
  }
  SUBCASE("a leading dot would hide the folder (or be . or ..): it is mapped too") {
    CHECK(student_path_name(".") == "%2E");
    CHECK(student_path_name("..") == "%2E.");
    CHECK(student_path_name(".bashrc") == "%2Ebashrc");
  }
  SUBCASE("long ids: the beginning, '~' and a hash, short enough for any file system") {
    const std::string long_plain(255, 'x');
    const std::string name = student_path_name(long_plain);
    CHECK(name.size() == 40 + 1 + 16);
    CHECK(name.starts_with(std::string(40, 'x') + "~"));
    const std::string long_odd(255, '\xff');
    CHECK(student_path_name(long_odd).size() <= 57);
    CHECK(student_path_name(long_odd).starts_with("%FF%FF"));
    CHECK(student_path_name(long_odd).find('~') != std::string::npos);
    CHECK(student_path_name(std::string(65, 'y')) != student_path_name(std::string(66, 'y')));
  }
  SUBCASE("stable: the same id always gives the same name") {
    CHECK(student_path_name(std::string(200, 'z') + " x") == student_path_name(std::string(200, 'z') + " x"));
  }
  SUBCASE("distinct ids, distinct names, even when they look alike") {
    const std::vector<std::string> ids{"bob smith", "bob%20smith", "bob%2520smith", "bob_smith", "bob~smith",
                                       ".x", "%2Ex", "x", std::string(64, 'a'), std::string(65, 'a'),
                                       std::string(64, 'a') + "~", "a\nb", "a\rb", "\xff", "%FF", "ÿ"};
    std::set<std::string> names;
    for (const auto& id : ids) names.insert(student_path_name(id));
    CHECK(names.size() == ids.size());
  }
}

TEST_CASE("batch::student folders") {
  const fs::path out = "/out";
  CHECK(student_reports_dir(out, "alice") == "/out/students/alice");
  CHECK(student_record_file(out, "bob smith") == "/out/results/bob%20smith.json");
  CHECK(student_work_dir(out, "a/b") == "/out/work/a%2Fb");
  SUBCASE("every path a 255-byte id makes is a valid file name, with room for a temporary suffix") {
    TempFolder dir;
    const std::string id(255, '\xc3');
    write_text(student_record_file(dir.path, id).string() + ".tmp-123456-7", "x");
    write_text(student_reports_dir(dir.path, id) / "report.html", "x");
    CHECK(fs::exists(student_reports_dir(dir.path, id) / "report.html"));
  }
}
