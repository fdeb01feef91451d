// SHA-256 against the FIPS 180-4 example vectors, HMAC-SHA256 against RFC 4231's test cases.
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
  SUBCASE("NUL bytes are data like any other") {
    CHECK(cugrade::sha256_hex(std::string("\0", 1)) ==
          "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
  }
}

TEST_CASE("core::hmac_sha256") {
  using cugrade::hmac_sha256;
  using cugrade::to_hex;
  SUBCASE("RFC 4231 test case 1: a 20-byte key") {
    CHECK(to_hex(hmac_sha256(std::string(20, '\x0b'), "Hi There")) ==
          "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  }
  SUBCASE("RFC 4231 test case 2: a key shorter than the output") {
    CHECK(to_hex(hmac_sha256("Jefe", "what do ya want for nothing?")) ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }
  SUBCASE("RFC 4231 test case 3: 50 bytes of 0xdd under a 20-byte key of 0xaa") {
    CHECK(to_hex(hmac_sha256(std::string(20, '\xaa'), std::string(50, '\xdd'))) ==
          "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  }
  SUBCASE("RFC 4231 test case 6: a key longer than the block is hashed first") {
    CHECK(to_hex(hmac_sha256(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First")) ==
          "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  }
  SUBCASE("RFC 4231 test case 7: a long key and a long message") {
    CHECK(to_hex(hmac_sha256(std::string(131, '\xaa'),
                             "This is a test using a larger than block-size key and a larger than block-size data. "
                             "The key needs to be hashed before being used by the HMAC algorithm.")) ==
          "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
  }
}
