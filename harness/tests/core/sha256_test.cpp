// SHA-256 against the FIPS 180-4 example vectors.
#include "core/sha256.hpp"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("core::sha256_hex") {
  SUBCASE("the empty string") {
    CHECK(cugrade::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  }
  SUBCASE("abc") {
    CHECK(cugrade::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }
  SUBCASE("two blocks (56 bytes: the padding spills into a second block)") {
    CHECK(cugrade::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  }
  SUBCASE("a million a's") {
    CHECK(cugrade::sha256_hex(std::string(1000000, 'a')) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }
}
