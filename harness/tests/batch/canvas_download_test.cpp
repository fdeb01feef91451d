// Canvas's "Download Submissions" (harness/src/batch/canvas_download.cpp): what its file names say,
// and a student's loose files copied under the names they gave them.
#include "batch/canvas_download.hpp"

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::canvas_file_name") {
  // Canvas's "Download Submissions": "<sortable name>[_late]_<user id>_<file id>_<file's own name>".
  const auto read = [](const std::string& name) {
    const auto parsed = canvas_file_name(name);
    return parsed ? parsed->student + "|" + (parsed->late ? "late" : "on time") + "|" + parsed->name : std::string("-");
  };
  CHECK(read("smithjohn_12345_678901_matmul.cu") == "smithjohn_12345|on time|matmul.cu");
  CHECK(read("smithjohn_late_12345_678901_matmul.cu") == "smithjohn_12345|late|matmul.cu");
  CHECK(read("smithjohn_LATE_12345_678901_matmul.cu") == "smithjohn_12345|late|matmul.cu");
  // The file's own name keeps its underscores and digits; a name may hold digits, not "_<digits>_".
  CHECK(read("obrien2pat_7_8_my_kernel_2_v3.cu") == "obrien2pat_7|on time|my_kernel_2_v3.cu");
  CHECK(read("de_la_cruz_ana_7_8_hw.zip") == "de_la_cruz_ana_7|on time|hw.zip");
  // Anonymous grading leaves the name out.
  CHECK(read("12345_678901_matmul.cu") == "12345|on time|matmul.cu");
  CHECK(read("late_12345_678901_matmul.cu") == "12345|late|matmul.cu");
  // A text entry's or a link's page.
  CHECK(read("smithjohn_12345_text.html") == "smithjohn_12345|on time|text.html");
  CHECK(read("smithjohn_late_12345_link.html") == "smithjohn_12345|late|link.html");
  // Not Canvas's: a folder-style id, a missing file id or name.
  CHECK(read("alice.zip") == "-");
  CHECK(read("smithjohn_12345_matmul.cu") == "-");
  CHECK(read("smithjohn_12345_678901_") == "-");
  CHECK(read("smithjohn_12345_678901_..") == "-");
  CHECK(read("s001-reference") == "-");
}

TEST_CASE("batch::canvas_name_before_rename") {
  // Canvas's Attachment.make_unique_filename: "<base>-<n><extension>", a UUID after 7.
  CHECK(canvas_name_before_rename("tiles-1.cuh") == "tiles.cuh");
  CHECK(canvas_name_before_rename("tiles-7.cuh") == "tiles.cuh");
  CHECK(canvas_name_before_rename("data-2.tar.gz") == "data.tar.gz");
  CHECK(canvas_name_before_rename("v1.2-1.cuh") == "v1.2.cuh");  // ".2" starts with a digit: not the extension's
  CHECK(canvas_name_before_rename("Makefile-3") == "Makefile");
  CHECK(canvas_name_before_rename("my-tiles-1.cuh") == "my-tiles.cuh");
  CHECK(canvas_name_before_rename("tiles-0b8f2c1e-6a4d-4e8b-9f1a-2c3d4e5f6a7b.cuh") == "tiles.cuh");
  CHECK_FALSE(canvas_name_before_rename("tiles.cuh"));
  CHECK_FALSE(canvas_name_before_rename("my-tiles.cuh"));
  CHECK_FALSE(canvas_name_before_rename("tiles-01.cuh"));
  CHECK_FALSE(canvas_name_before_rename("tiles-1.2.cuh"));  // Canvas renames "tiles.2.cuh" "tiles.2-1.cuh"
  CHECK_FALSE(canvas_name_before_rename("-1.cuh"));
  CHECK_FALSE(canvas_name_before_rename("tiles-.cuh"));
}

TEST_CASE("batch::copy_loose_files") {
  TempFolder dir;
  write_text(dir.path / "class" / "smithjohn_11_901_matmul.cu", "kernel");
  write_text(dir.path / "class" / "smithjohn_11_902_tiles.cuh", "header");
  const std::vector<LooseFile> files{{dir.path / "class" / "smithjohn_11_901_matmul.cu", "matmul.cu"},
                                     {dir.path / "class" / "smithjohn_11_902_tiles.cuh", "tiles.cuh"}};
  SUBCASE("copied under their own names; a name twice, or none that is plain, under Canvas's") {
    std::vector<LooseFile> twice = files;
    twice.push_back({dir.path / "class" / "smithjohn_11_902_tiles.cuh", "matmul.cu"});
    twice.push_back({dir.path / "class" / "smithjohn_11_901_matmul.cu", ".hidden"});
    REQUIRE(copy_loose_files(twice, dir.path / "copy").has_value());
    CHECK(read_text(dir.path / "copy" / "matmul.cu") == "kernel");
    CHECK(read_text(dir.path / "copy" / "tiles.cuh") == "header");
    CHECK(read_text(dir.path / "copy" / "smithjohn_11_902_tiles.cuh") == "header");
    CHECK(read_text(dir.path / "copy" / "smithjohn_11_901_matmul.cu") == "kernel");
    CHECK_FALSE(fs::exists(dir.path / "copy" / ".hidden"));
  }
  SUBCASE("a header Canvas renamed also under its old name, where that is free and unambiguous") {
    const fs::path from = dir.path / "class";
    write_text(from / "kimmin_12_911_tiles-1.cuh", "renamed header");
    write_text(from / "kimmin_12_912_matmul-1.cu", "renamed kernel");
    write_text(from / "kimmin_12_913_hw2-1.zip", "archive");
    write_text(from / "kimmin_12_914_a-1.h", "first");
    write_text(from / "kimmin_12_915_a-2.h", "second");
    write_text(from / "kimmin_12_916_b-1.hpp", "renamed");
    write_text(from / "kimmin_12_917_b.hpp", "the student's own");
    const std::vector<LooseFile> renamed{{from / "kimmin_12_911_tiles-1.cuh", "tiles-1.cuh"},
                                         {from / "kimmin_12_912_matmul-1.cu", "matmul-1.cu"},
                                         {from / "kimmin_12_913_hw2-1.zip", "hw2-1.zip"},
                                         {from / "kimmin_12_914_a-1.h", "a-1.h"},
                                         {from / "kimmin_12_915_a-2.h", "a-2.h"},
                                         {from / "kimmin_12_916_b-1.hpp", "b-1.hpp"},
                                         {from / "kimmin_12_917_b.hpp", "b.hpp"}};
    const fs::path to = dir.path / "renamed";
    REQUIRE(copy_loose_files(renamed, to).has_value());
    CHECK(read_text(to / "tiles-1.cuh") == "renamed header");
    CHECK(read_text(to / "tiles.cuh") == "renamed header");  // what `#include "tiles.cuh"` finds
    CHECK(read_text(to / "matmul-1.cu") == "renamed kernel");
    CHECK_FALSE(fs::exists(to / "matmul.cu"));  // compiled by any name: never twice
    CHECK_FALSE(fs::exists(to / "hw2.zip"));    // one archive, unpacked alone
    CHECK_FALSE(fs::exists(to / "a.h"));        // two candidates: neither guessed
    CHECK(read_text(to / "b.hpp") == "the student's own");
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(to)) ++entries;
    CHECK(entries == renamed.size() + 1);
  }
  SUBCASE("a link among them is refused, not followed") {
    fs::create_symlink("/etc/passwd", dir.path / "class" / "smithjohn_11_903_x.cu");
    std::vector<LooseFile> with_link = files;
    with_link.push_back({dir.path / "class" / "smithjohn_11_903_x.cu", "x.cu"});
    const auto copied = copy_loose_files(with_link, dir.path / "linked");
    REQUIRE_FALSE(copied.has_value());
    CHECK(copied.error().message.starts_with("smithjohn_11_903_x.cu is a symbolic link"));
    CHECK_FALSE(fs::exists(dir.path / "linked" / "x.cu"));
  }
}
