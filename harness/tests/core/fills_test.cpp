// The fills harness and runner share (runtime/fills.hpp): the shared-memory poison byte, read
// from a job's task or from the environment.
#include "fills.hpp"

#include <doctest/doctest.h>

TEST_CASE("runtime::shared_poison_byte") {
  CHECK(cugrade::shared_poison_byte("00") == 0x00);
  CHECK(cugrade::shared_poison_byte("ff") == 0xFF);
  CHECK(cugrade::shared_poison_byte("A5") == 0xA5);
  SUBCASE("anything but two hex digits: the default, 0xFF") {
    CHECK(cugrade::shared_poison_byte(nullptr) == 0xFF);
    CHECK(cugrade::shared_poison_byte("") == 0xFF);
    CHECK(cugrade::shared_poison_byte("0") == 0xFF);
    CHECK(cugrade::shared_poison_byte("0x") == 0xFF);
    CHECK(cugrade::shared_poison_byte("-1") == 0xFF);
    CHECK(cugrade::shared_poison_byte("100") == 0xFF);
  }
}
