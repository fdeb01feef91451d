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
}

TEST_CASE("spec::did_you_mean") {
  CHECK(did_you_mean("seed", {"seeds", "sizes"}) == "; did you mean 'seeds'?");
  CHECK(did_you_mean("wibble", {"seeds", "sizes"}) == "");
}

TEST_CASE("spec::join_names") {
  CHECK(join_names({"matmul", "vecadd"}) == "matmul, vecadd");
  CHECK(join_names({}) == "");
}
