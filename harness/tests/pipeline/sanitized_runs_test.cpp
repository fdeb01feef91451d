#include "pipeline/sanitized_runs.hpp"

#include <doctest/doctest.h>

#include <memory>

#include "array_file.hpp"
#include "pipeline/schedule_race.hpp"
#include "temp_dir.hpp"

#include "test_arrays.hpp"

using namespace cugrade;
using cugrade::test::f32;
using cugrade::test::f64;
using cugrade::test::TempDir;

namespace {
/// A case whose gold is C = {1, 2, 3}.
PlannedCase planned_c() {
  auto material = std::make_shared<CaseMaterial>();
  material->gold = {{"C", f64({1.0, 2.0, 3.0})}};
  return PlannedCase{Case{"c", "s", {}, 1, 1.0, Visibility::visible, true}, material};
}
}  // namespace

TEST_CASE("pipeline::sanitized_outputs_pass") {
  TempDir dir("sanitized-runs");
  const std::string right = (dir.path / "right.out").string(), wrong = (dir.path / "wrong.out").string();
  REQUIRE(write_array_file(right, {{"C", f32({1.0f, 2.0f, 3.0f})}}));
  REQUIRE(write_array_file(wrong, {{"C", f32({1.0f, 2.5f, 3.0f})}}));
  const Tolerance tolerance{0.1, 0.0};
  CHECK(sanitized_outputs_pass(right, planned_c(), tolerance) == std::optional<bool>(true));
  CHECK(sanitized_outputs_pass(wrong, planned_c(), tolerance) == std::optional<bool>(false));
  CHECK_FALSE(sanitized_outputs_pass((dir.path / "none.out").string(), planned_c(), tolerance).has_value());
  REQUIRE(write_array_file(wrong, {{"D", f32({1.0f, 2.0f, 3.0f})}}));  // not the gold's output
  CHECK_FALSE(sanitized_outputs_pass(wrong, planned_c(), tolerance).has_value());
}

TEST_CASE("pipeline::note_sanitized_disagreement") {
  SUBCASE("wrong without the sanitizer, right under it: the report says so, the case stays failed") {
    CaseResult failed{"c", "s", Visibility::visible, {}, 1, Outcome::wrong_answer, 0.0, 1.0, 0.1, "3 of 3 elements wrong", {}};
    CHECK(note_sanitized_disagreement(failed, true, "memcheck"));
    CHECK(failed.outcome == Outcome::wrong_answer);
    CHECK(failed.message.starts_with("3 of 3 elements wrong — under compute-sanitizer (memcheck) this case's outputs "
                                     "were right, and without it wrong"));
    CHECK_FALSE(note_sanitized_disagreement(failed, true, "memcheck"));  // said once
  }
  SUBCASE("right without the sanitizer, wrong under it: the case fails") {
    CaseResult passed{"c", "s", Visibility::visible, {}, 1, Outcome::passed, 1.0, 1.0, 0.1, "", {}};
    CHECK(note_sanitized_disagreement(passed, false, "memcheck"));
    CHECK(passed.outcome == Outcome::wrong_answer);
    CHECK(passed.points == 0.0);
    CHECK(passed.message.find("were wrong, and without it right") != std::string::npos);
  }
  SUBCASE("wrong without it, right under it, where uninitialised shared memory already explains it: no guess") {
    // matmul/tiled_no_zero_fill of the buggy corpus on an H200: told "a race" beside the right cause.
    CaseResult failed{"c", "s", Visibility::visible, {}, 1, Outcome::wrong_answer, 0.0, 1.0, 0.1,
                      std::string(uninitialised_shared_message) + ": results change when shared memory starts with "
                                                                   "other contents", {}};
    const std::string before = failed.message;
    CHECK_FALSE(note_sanitized_disagreement(failed, true, "memcheck"));
    CHECK(failed.message == before);
  }
  SUBCASE("runs that agree, or a case that failed otherwise, are left as they are") {
    CaseResult passed{"c", "s", Visibility::visible, {}, 1, Outcome::passed, 1.0, 1.0, 0.1, "", {}};
    CHECK_FALSE(note_sanitized_disagreement(passed, true, "memcheck"));
    CHECK(passed.outcome == Outcome::passed);
    CaseResult crashed{"c", "s", Visibility::visible, {}, 1, Outcome::crashed, 0.0, 1.0, 0.1, "segfault", {}};
    CHECK_FALSE(note_sanitized_disagreement(crashed, true, "memcheck"));
    CHECK(crashed.message == "segfault");
  }
}

TEST_CASE("pipeline::drop_right_when_sanitized") {
  CaseResult failed{"c", "s", Visibility::visible, {}, 1, Outcome::wrong_answer, 0.0, 1.0, 0.1, "3 of 3 elements wrong", {}};
  REQUIRE(note_sanitized_disagreement(failed, true, "memcheck"));
  failed.message += " — a third sentence";
  CHECK(drop_right_when_sanitized(failed.message));
  CHECK(failed.message == "3 of 3 elements wrong — a third sentence");
  CHECK_FALSE(drop_right_when_sanitized(failed.message));  // nothing left to take
  // Alone in its message, and first before another sentence.
  CaseResult alone{"c", "s", Visibility::visible, {}, 1, Outcome::wrong_answer, 0.0, 1.0, 0.1, "", {}};
  REQUIRE(note_sanitized_disagreement(alone, true, "racecheck"));
  std::string first = alone.message + " — then this";
  CHECK(drop_right_when_sanitized(alone.message));
  CHECK(alone.message.empty());
  CHECK(drop_right_when_sanitized(first));
  CHECK(first == "then this");
  // The other disagreement (wrong only under the sanitizer) is the case's whole verdict: it stays.
  CaseResult passed{"c", "s", Visibility::visible, {}, 1, Outcome::passed, 1.0, 1.0, 0.1, "", {}};
  REQUIRE(note_sanitized_disagreement(passed, false, "memcheck"));
  CHECK_FALSE(drop_right_when_sanitized(passed.message));
}
