// Hidden seeds are keyed by the course secret: HMAC-SHA256, not a mix that could be run backwards.
#include "core/course_secret.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "core/sha256.hpp"

using cugrade::CourseSecret;
using cugrade::hidden_seed;

TEST_CASE("core::hidden_seed") {
  const CourseSecret secret("correct horse battery staple");
  SUBCASE("the first 8 bytes of HMAC-SHA256(secret, label), big-endian") {
    const cugrade::Digest256 mac = cugrade::hmac_sha256("correct horse battery staple", "vecadd/add/n=1000/1");
    std::uint64_t expected = 0;
    for (int i = 0; i < 8; ++i) expected = expected << 8 | mac[static_cast<std::size_t>(i)];
    CHECK(hidden_seed(secret, "vecadd/add/n=1000/1") == expected);
    // Pinned (Python: hmac.new(secret, label, sha256).hexdigest()[:16]): a change here changes
    // every hidden case of every course.
    CHECK(hidden_seed(secret, "vecadd/add/n=1000/1") == 0x06407d9e00a1f139ULL);
  }
  SUBCASE("the same secret and label give the same seed") {
    CHECK(hidden_seed(secret, "matmul/tiled/M=64/1") == hidden_seed(CourseSecret("correct horse battery staple"),
                                                                    "matmul/tiled/M=64/1"));
  }
  SUBCASE("seeds differ per secret and per case") {
    std::set<std::uint64_t> seeds;
    // (Not "" beside "\0": HMAC pads a short key with zero bytes, so trailing NULs of a key are
    // not part of it — RFC 2104's definition, not a fault of the seeds.)
    for (const std::string& key : std::vector<std::string>{"a", "b", "correct horse battery staple",
                                                           std::string("\0x", 2), std::string("x\0y", 3)})
      for (const char* label : {"matmul/tiled/M=64/1", "matmul/tiled/M=64/2", "matmul/naive/M=64/1"})
        seeds.insert(hidden_seed(CourseSecret(key), label));
    CHECK(seeds.size() == 15);
  }
  SUBCASE("any bytes are a secret: a NUL or a non-UTF-8 byte is part of it, not an end") {
    CHECK(hidden_seed(CourseSecret(std::string("ab\0c", 4)), "x") != hidden_seed(CourseSecret("ab"), "x"));
    CHECK(hidden_seed(CourseSecret("\xff\xfe"), "x") != hidden_seed(CourseSecret("\xff"), "x"));
  }
}

TEST_CASE("core::CourseSecret") {
  SUBCASE("holds the bytes as given") {
    const CourseSecret secret(std::string("s\0\xff", 3));
    CHECK(secret.bytes() == std::string_view("s\0\xff", 3));
  }
  SUBCASE("a moved-from secret holds nothing") {
    CourseSecret from("a long enough secret to live on the heap, not in the string itself");
    CourseSecret to(std::move(from));
    CHECK(to.bytes() == "a long enough secret to live on the heap, not in the string itself");
    CHECK(from.bytes().empty());  // NOLINT(bugprone-use-after-move): what is left behind is the point
  }
}
