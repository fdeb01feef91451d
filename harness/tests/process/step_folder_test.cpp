// What a step leaves in its folder is never followed (harness/src/process/step_folder.cpp).
#include "process/step_folder.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
/// A fresh folder of its own under the temporary folder.
fs::path make_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "cugrade-step-folder-XXXXXX").string();
  return ::mkdtemp(pattern.data());
}
}  // namespace

TEST_CASE("process::remove_planted_links") {
  const fs::path dir = make_temp_dir();
  const fs::path outside = make_temp_dir();
  std::ofstream(outside / "secret") << "s";
  fs::create_directories(dir / "sub" / "deeper");
  std::ofstream(dir / "out.bin") << "x";
  std::ofstream(dir / "sub" / "deeper" / "file") << "y";
  fs::create_symlink(outside / "secret", dir / "job-2.json");
  fs::create_directory_symlink(outside, dir / "reverse");
  fs::create_symlink(outside / "secret", dir / "sub" / "deeper" / "shared.log");
  REQUIRE(::mkfifo((dir / "sub" / "pipe").c_str(), 0600) == 0);
  remove_planted_links(dir);
  CHECK(fs::is_regular_file(dir / "out.bin"));
  CHECK(fs::is_regular_file(dir / "sub" / "deeper" / "file"));
  for (const char* gone : {"job-2.json", "reverse", "sub/deeper/shared.log", "sub/pipe"}) {
    CAPTURE(gone);
    CHECK_FALSE(fs::exists(fs::symlink_status(dir / gone)));
  }
  CHECK(fs::is_regular_file(outside / "secret"));  // nothing followed
  fs::remove_all(dir);
  fs::remove_all(outside);
}

TEST_CASE("process::create_empty_file") {
  const fs::path dir = make_temp_dir();
  const fs::path outside = make_temp_dir();
  std::ofstream(outside / "precious") << "keep me";
  fs::create_symlink(outside / "precious", dir / "start-gate");
  CHECK(create_empty_file(dir / "start-gate"));
  CHECK(fs::is_regular_file(fs::symlink_status(dir / "start-gate")));
  CHECK(fs::file_size(outside / "precious") == 7);  // not truncated through the link
  CHECK(create_empty_file(dir / "start-gate"));     // there already: fine
  CHECK(create_empty_file(dir / "other"));
  CHECK_FALSE(create_empty_file(dir / "missing-folder" / "gate"));
  fs::remove_all(dir);
  fs::remove_all(outside);
}
