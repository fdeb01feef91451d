#include "similarity/class_code.hpp"

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("similarity::read_class_code") {
  TempFolder dir;
  const fs::path submissions = dir.path / "hw", work = dir.path / "work";
  write_text(submissions / "alice" / "b_kernels.cu", "__global__ void k() {}");  // no final line break
  write_text(submissions / "alice" / "a_main.cu", "void a() {}\nvoid b() {}\n");
  write_text(submissions / "alice" / "notes.txt", "not code");
  make_archive(submissions / "bob.zip", {{"bob/", "", Entry::folder}, {"bob/matmul.cu", "void m() {}\n"}}, true);
  write_text(submissions / "bob smith" / "matmul.cu", "void s() {}\n");  // an id that is no plain file name
  fs::create_directories(submissions / "carol");                         // nothing handed in
  write_text(submissions / "dave.zip", "not a zip");                     // damaged

  Spec spec;
  spec.id = "matmul";
  auto read = read_class_code(submissions, work, spec);
  REQUIRE_MESSAGE(read.has_value(), read.error().message);
  REQUIRE(read->students.size() == 3);
  const StudentCode& alice = read->students[0];
  CHECK(alice.student == "alice");
  // The batch's order: .cu files by name, each ending with a line break, its first line kept.
  CHECK(alice.text == "void a() {}\nvoid b() {}\n__global__ void k() {}\n");
  REQUIRE(alice.files.size() == 2);
  CHECK(alice.files[0].name == "a_main.cu");
  CHECK(alice.files[0].first_line == 1);
  CHECK(alice.files[1].name == "b_kernels.cu");
  CHECK(alice.files[1].first_line == 3);
  CHECK(read->students[1].student == "bob");  // unpacked from its archive, past the wrapper folder
  CHECK(read->students[1].text == "void m() {}\n");
  CHECK(read->students[2].student == "bob smith");
  REQUIRE(read->left_out.size() == 2);
  CHECK(read->left_out[0].starts_with("carol: "));
  CHECK(read->left_out[1].starts_with("dave: dave.zip cannot be unpacked"));
  // The students' files were unpacked under `work`, nowhere else.
  CHECK(fs::exists(work / "bob" / "files" / "bob" / "matmul.cu"));
}

TEST_CASE("similarity::read_class_code of no class") {
  TempFolder dir;
  Spec spec;
  spec.id = "matmul";
  write_text(dir.path / "hw" / "notes.txt", "not a submission");
  auto read = read_class_code(dir.path / "hw", dir.path / "work", spec);
  REQUIRE_FALSE(read.has_value());
  CHECK(read.error().message.starts_with("no submission in "));  // what a submission is, as `grade` says
  CHECK_FALSE(read_class_code(dir.path / "missing", dir.path / "work", spec).has_value());
}

TEST_CASE("similarity::read_template_code") {
  TempFolder dir;
  write_text(dir.path / "matmul.cu", "void m() {}\n");
  write_text(dir.path / "README.md", "# not code\n");
  auto base = read_template_code(dir.path);
  REQUIRE_MESSAGE(base.has_value(), base.error().message);
  CHECK(base->text == "void m() {}\n");
  CHECK_FALSE(read_template_code(dir.path / "missing").has_value());
}
