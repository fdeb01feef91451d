#include "spec/suggest.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("spec::edit_distance") {
  CHECK(edit_distance("tolerance", "tolerance") == 0);
  CHECK(edit_distance("tolerence", "tolerance") == 1);  // substitution
  CHECK(edit_distance("tilte", "title") == 1);          // neighbours swapped
  CHECK(edit_distance("seed", "seeds") == 1);           // insertion
  CHECK(edit_distance("", "abc") == 3);
}

TEST_CASE("spec::nearest_name") {
  const std::vector<std::string> keys = {"id", "title", "steps", "cases"};
  SUBCASE("within two edits") { CHECK(nearest_name("titel", keys) == "title"); }
  SUBCASE("a case-insensitive match wins even when far in edits") {
    CHECK(nearest_name("TITLE", keys) == "title");
  }
  SUBCASE("the nearest of several") { CHECK(nearest_name("case", keys) == "cases"); }
  SUBCASE("nothing within two edits") { CHECK(nearest_name("wibble", keys) == std::nullopt); }
  SUBCASE("a wholly different short name is not a misspelling") {
    CHECK(nearest_name("x", keys) == std::nullopt);
  }
  SUBCASE("a name longer than 64 characters gets no suggestion, even up to case") {
    CHECK(nearest_name(std::string(64, 'a'), {std::string(64, 'A')}) == std::string(64, 'A'));
    CHECK(nearest_name(std::string(65, 'a'), {std::string(65, 'A')}) == std::nullopt);
    // A megabyte against every candidate: no edit-distance table of that size is built.
    CHECK(nearest_name(std::string(1 << 20, 'x'), keys) == std::nullopt);
  }
  SUBCASE("a long candidate is skipped, not compared letter by letter") {
    CHECK(nearest_name("title", {std::string(1 << 20, 't'), "titles"}) == "titles");
  }
}

TEST_CASE("spec::did_you_mean") {
  CHECK(did_you_mean("seed", {"seeds", "sizes"}) == "; did you mean 'seeds'?");
  CHECK(did_you_mean("wibble", {"seeds", "sizes"}) == "");
}

TEST_CASE("spec::join_names") {
  CHECK(join_names({"matmul", "vecadd"}) == "matmul, vecadd");
  CHECK(join_names({}) == "");
  SUBCASE("past `most` names, how many more") {
    CHECK(join_names({"a", "b", "c", "d"}, 2) == "a, b, … (2 more)");
    CHECK(join_names({"a", "b"}, 2) == "a, b");
  }
  SUBCASE("each name excerpted") {
    CHECK(join_names({std::string(100, 'n'), "m"}) == std::string(80, 'n') + "…, m");
  }
}

TEST_CASE("spec::excerpt") {
  CHECK(excerpt("short") == "short");
  CHECK(excerpt(std::string(80, 'a')) == std::string(80, 'a'));
  CHECK(excerpt(std::string(81, 'a')) == std::string(80, 'a') + "…");
  CHECK(excerpt("abcdef", 3) == "abc…");
  SUBCASE("never cuts a UTF-8 character in two") {
    CHECK(excerpt("ab×cd", 3) == "ab…");  // '×' is 2 bytes, at bytes 2 and 3
  }
  CHECK(quoted_excerpt(std::string(5 << 20, 'v')).size() == 2 + 80 + std::string("…").size());
}
