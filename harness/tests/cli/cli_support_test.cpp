// The course secret is read as bytes and kept as bytes: not a number, not left in the environment.
#include "cli/cli_support.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
fs::path secret_file(const std::string& bytes) {
  const fs::path path = fs::temp_directory_path() / ("cugrade-secret-test-" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}
}  // namespace

TEST_CASE("cli::course_secret") {
  ::unsetenv("CUGRADE_COURSE_SECRET");
  SUBCASE("none given: no hidden cases") {
    auto secret = course_secret("");
    REQUIRE(secret.has_value());
    CHECK_FALSE(secret->has_value());
  }
  SUBCASE("a file: its bytes, any of them, without the trailing line break") {
    const fs::path path = secret_file(std::string("s3cr\0t \xff\xfe\n", 10));
    auto secret = course_secret(path.string());
    fs::remove(path);
    REQUIRE(secret.has_value());
    REQUIRE(secret->has_value());
    CHECK((*secret)->bytes() == std::string_view("s3cr\0t \xff\xfe", 9));
  }
  SUBCASE("a long secret is kept whole, not folded into 64 bits") {
    const std::string long_secret(300, 'k');
    const fs::path path = secret_file(long_secret + "x");
    auto a = course_secret(path.string());
    secret_file(long_secret + "y");
    auto b = course_secret(path.string());
    fs::remove(path);
    REQUIRE((a && b && a->has_value() && b->has_value()));
    CHECK((*a)->bytes() == long_secret + "x");
    CHECK(hidden_seed(**a, "x/y/n=1/1") != hidden_seed(**b, "x/y/n=1/1"));
  }
  SUBCASE("an empty file is an error") {
    const fs::path path = secret_file("\n");
    auto secret = course_secret(path.string());
    fs::remove(path);
    REQUIRE_FALSE(secret.has_value());
    CHECK(secret.error().message == "the secret file " + path.string() + " is empty");
  }
  SUBCASE("$CUGRADE_COURSE_SECRET: read, then removed from this process's environment") {
    ::setenv("CUGRADE_COURSE_SECRET", "from the environment", 1);
    auto secret = course_secret("");
    REQUIRE(secret.has_value());
    REQUIRE(secret->has_value());
    CHECK((*secret)->bytes() == "from the environment");
    CHECK(std::getenv("CUGRADE_COURSE_SECRET") == nullptr);
  }
  SUBCASE("--secret-file wins over the environment") {
    ::setenv("CUGRADE_COURSE_SECRET", "env", 1);
    const fs::path path = secret_file("file");
    auto secret = course_secret(path.string());
    fs::remove(path);
    REQUIRE((secret && secret->has_value()));
    CHECK((*secret)->bytes() == "file");
    ::unsetenv("CUGRADE_COURSE_SECRET");
  }
}

TEST_CASE("cli::absolute_path") {
  // Made absolute against the folder cugrade was started in, once: a compiler later run in a
  // work folder must not read "out/" against its own.
  CHECK(absolute_path("").empty());
  CHECK(absolute_path("hw2-grades/") == fs::current_path() / "hw2-grades/");
  CHECK(absolute_path("/abs/path") == fs::path("/abs/path"));
  CHECK(absolute_path("a/../b").is_absolute());
}

TEST_CASE("cli::parse_backend") {
  CHECK(parse_backend("auto") == Backend::automatic);
  CHECK(parse_backend("cuda") == Backend::cuda);
  CHECK(parse_backend("cpu") == Backend::cpu);
  CHECK(parse_backend("gpu").error().message == "unknown backend 'gpu': choose auto, cuda or cpu (the GPU's is cuda)");
  CHECK(parse_backend("fpga").error().message == "unknown backend 'fpga': choose auto, cuda or cpu");
}
