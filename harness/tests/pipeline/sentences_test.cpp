// A message as sentences joined by " — " (pipeline/sentences.hpp).
#include "pipeline/sentences.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("sentences::append_sentence") {
  std::string message;
  append_sentence(message, "a");
  CHECK(message == "a");
  append_sentence(message, "b");
  CHECK(message == "a — b");
}

TEST_CASE("sentences::erase_sentence") {
  std::string middle = "a — b — c";
  const auto b = middle.find('b');
  erase_sentence(middle, b, b + 1);  // the separator before it goes
  CHECK(middle == "a — c");
  std::string first = "b — c";
  erase_sentence(first, 0, 1);  // no separator before: the one after goes
  CHECK(first == "c");
  std::string alone = "b";
  erase_sentence(alone, 0, 1);
  CHECK(alone.empty());
}

TEST_CASE("sentences::replace_sentence") {
  std::string message = "a — b";
  CHECK(replace_sentence(message, "b", "c"));
  CHECK(message == "a — c");
  CHECK_FALSE(replace_sentence(message, "b", "c"));
}
