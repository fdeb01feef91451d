#include "batch/shard.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

using namespace cugrade;

TEST_CASE("batch::parse_shard") {
  auto shard = parse_shard("3/8");
  REQUIRE(shard.has_value());
  CHECK(*shard == Shard{3, 8});
  CHECK(shard_text(*shard) == "3/8");
  CHECK(parse_shard("1/1").has_value());
  for (const char* bad : {"", "3", "0/8", "9/8", "3/0", "-1/8", "3/8x", "a/b", "3//8", "/8", "3/"}) {
    CAPTURE(bad);
    auto refused = parse_shard(bad);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message.find("I/N") != std::string::npos);
  }
}

TEST_CASE("batch::shard_of") {
  SUBCASE("stable: fixed by the id's SHA-256, the same on every machine and build") {
    // sha256("alice") begins 2bd806c97f0e00af: 0x2bd806c97f0e00af mod 8 = 7, so part 8.
    CHECK(shard_of("alice", 8) == 8);
    CHECK(shard_of("alice", 8) == shard_of(std::string("ali") + "ce", 8));
    CHECK(shard_of("alice", 1) == 1);
  }
  SUBCASE("every student in exactly one part, and the parts balanced") {
    constexpr std::size_t count = 7, students = 2100;
    std::map<std::size_t, std::size_t> sizes;
    for (std::size_t i = 0; i < students; ++i) {
      const std::string id = "s" + std::to_string(i);
      std::size_t parts = 0;
      for (std::size_t index = 1; index <= count; ++index)
        if (in_shard(id, Shard{index, count})) ++parts;
      CHECK(parts == 1);
      ++sizes[shard_of(id, count)];
    }
    REQUIRE(sizes.size() == count);
    // 300 expected per part; a binomial's standard deviation here is about 16.
    for (const auto& [part, size] : sizes) {
      CAPTURE(part);
      CHECK(size > 240);
      CHECK(size < 360);
    }
  }
  SUBCASE("a student's part does not depend on the classmates") {
    std::set<std::size_t> parts;
    for (const char* id : {"bob", "bob", "bob"}) parts.insert(shard_of(id, 5));
    CHECK(parts.size() == 1);
  }
}
