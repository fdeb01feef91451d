// The outcome names are what every report and gradebook says: they must round-trip.
#include "core/outcome.hpp"

#include <doctest/doctest.h>

using cugrade::Outcome;

TEST_CASE("core::outcome") {
  SUBCASE("every outcome round-trips through its name") {
    for (int i = 0; i <= static_cast<int>(Outcome::harness_error); ++i) {
      const auto outcome = static_cast<Outcome>(i);
      CHECK(cugrade::outcome_from_string(cugrade::to_string(outcome)) == outcome);
    }
    CHECK(cugrade::to_string(Outcome::wrong_answer) == "wrong_answer");
  }
  SUBCASE("an unknown name is no outcome") {
    CHECK_FALSE(cugrade::outcome_from_string("wrong").has_value());
  }
  SUBCASE("harness faults and cases not run never count against a student") {
    CHECK_FALSE(cugrade::is_student_outcome(Outcome::harness_error));
    CHECK_FALSE(cugrade::is_student_outcome(Outcome::not_run));
    CHECK(cugrade::is_student_outcome(Outcome::timeout));
  }
  SUBCASE("only build failures make a submission ungradable") {
    CHECK(cugrade::is_ungradable(Outcome::compile_error));
    CHECK(cugrade::is_ungradable(Outcome::link_error));
    CHECK(cugrade::is_ungradable(Outcome::forbidden_symbol));
    CHECK_FALSE(cugrade::is_ungradable(Outcome::wrong_answer));
  }
}
