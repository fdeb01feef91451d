// The file format between harness and runner: what is written is read back exactly, and a
// damaged file is refused with a message, never read as data.
#include "array_file.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace {
std::string temp_file(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string(name) + "-" + std::to_string(getpid()))).string();
}
}  // namespace

TEST_CASE("runtime::array_file") {
  cugrade::ArraySet arrays;
  arrays["A"] = cugrade::make_array(cugrade::DType::f32, {2, 3});
  for (int i = 0; i < 6; ++i) arrays["A"].data<float>()[i] = 0.5f * i;
  arrays["n"] = cugrade::make_array(cugrade::DType::i64, {});
  arrays["n"].data<std::int64_t>()[0] = -7;
  const std::string path = temp_file("cugrade-arrays");

  SUBCASE("round trip: names, types, shapes and bytes") {
    REQUIRE(cugrade::write_array_file(path, arrays));
    const auto back = cugrade::read_array_file(path);
    REQUIRE(back.has_value());
    CHECK(back->size() == 2);
    CHECK(back->at("A").dims == std::vector<std::int64_t>{2, 3});
    CHECK(back->at("A").bytes == arrays["A"].bytes);
    CHECK(back->at("A").value(5) == 2.5);
    CHECK(back->at("n").value(0) == -7.0);
    CHECK_FALSE(std::filesystem::exists(path + ".partial"));
  }
  SUBCASE("a symbolic link is refused, not followed (a runner's planted link would read any file)") {
    REQUIRE(cugrade::write_array_file(path, arrays));
    const std::string link = path + ".link";
    std::filesystem::create_symlink(path, link);
    std::string error;
    CHECK_FALSE(cugrade::read_array_file(link, &error).has_value());
    CHECK(error == link + " is a symbolic link, not a file");
    std::filesystem::remove(link);
  }
  SUBCASE("a truncated file is refused") {
    REQUIRE(cugrade::write_array_file(path, arrays));
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 3);
    std::string error;
    CHECK_FALSE(cugrade::read_array_file(path, &error).has_value());
    CHECK(error.find("truncated array") != std::string::npos);
  }
  SUBCASE("a header claiming more than the file holds is refused before any allocation") {
    // One f32 array "x" of shape {2^31, 2^31}: 2^64 bytes claimed by a file of a few dozen.
    std::ofstream out(path, std::ios::binary);
    const auto put = [&](auto value) { out.write(reinterpret_cast<const char*>(&value), sizeof value); };
    out.write("CGARRAY1", 8);
    put(std::uint64_t{1});
    put(std::uint64_t{1});
    out.write("x", 1);
    put(std::uint8_t{0});
    put(std::uint64_t{2});
    put(std::int64_t{1} << 31);
    put(std::int64_t{1} << 31);
    put(std::uint64_t{0});  // what 2^62 elements of 4 bytes wrap to
    out.close();
    std::string error;
    CHECK_FALSE(cugrade::read_array_file(path, &error).has_value());
    CHECK(error == path + ": size of x does not match its shape");
  }
  SUBCASE("unset_array has the shape and room of make_array") {
    const cugrade::Array blank = cugrade::unset_array(cugrade::DType::f64, {3, 4});
    CHECK(blank.dims == std::vector<std::int64_t>{3, 4});
    CHECK(blank.bytes.size() == 3 * 4 * sizeof(double));
  }
  SUBCASE("something else is not an array file") {
    std::ofstream(path) << "PASSED\n";
    std::string error;
    CHECK_FALSE(cugrade::read_array_file(path, &error).has_value());
    CHECK(error == path + ": not an array file");
  }
  SUBCASE("a missing file") {
    std::string error;
    CHECK_FALSE(cugrade::read_array_file(path + ".none", &error).has_value());
    CHECK(error == "cannot open " + path + ".none");
  }
  std::filesystem::remove(path);
}
