#include "report/leaderboard_entries.hpp"

#include <doctest/doctest.h>

#include "sample_report.hpp"

namespace cugrade {
namespace {

TEST_CASE("report::leaderboard_times") {
  SUBCASE("a sealed GPU run that passed every case: its timed step, with the report's own figures") {
    const GradeReport r = test::perfect_report();
    CHECK_FALSE(leaderboard_exclusion(r).has_value());
    const auto times = leaderboard_times(r);
    REQUIRE(times.size() == 1);
    CHECK(times[0] == LeaderboardTime{.step = "tiled", .size = "K=4096,M=4096,N=4096", .median_ms = 1.234,
                                      .reference_ms = 1.1, .ratio = 0.8914, .rate = 111.38, .rate_unit = "TFLOP/s"});
  }
  SUBCASE("a correct step slower than the last credited ratio still counts: a time is a time") {
    GradeReport r = test::perfect_report();
    r.performance[0].points = 0.0;
    CHECK(leaderboard_times(r).size() == 1);
  }
  SUBCASE("a flagged timing is left off, the other steps stay") {
    GradeReport r = test::perfect_report();
    r.performance.push_back(test::sample_report().performance[1]);  // below the roofline floor
    CHECK(leaderboard_step_exclusion(r.performance[1]) == "timing flagged: below_roofline_floor, timer_escaped");
    const auto times = leaderboard_times(r);
    REQUIRE(times.size() == 1);
    CHECK(times[0].step == "tiled");
  }
  SUBCASE("a step not timed, or that failed while timed, is left off") {
    GradeReport r = test::perfect_report();
    r.performance[0].outcome = Outcome::wrong_answer;
    CHECK(leaderboard_step_exclusion(r.performance[0]) == "not timed");
    CHECK(leaderboard_times(r).empty());
    r.performance[0].outcome = Outcome::passed;
    r.performance[0].student.reset();
    CHECK(leaderboard_times(r).empty());
  }
  SUBCASE("whole submissions left off, each for its reason") {
    GradeReport wrong = test::sample_report();  // a wrong answer among its cases
    CHECK(leaderboard_exclusion(wrong) == "not every case passed");
    CHECK(leaderboard_times(wrong).empty());
    CHECK(leaderboard_exclusion(test::compile_error_report()) == "not gradable");
    GradeReport fault = test::compile_error_report();
    fault.outcome = Outcome::harness_error;
    CHECK(leaderboard_exclusion(fault) == "not graded (a harness error)");
    GradeReport cpu = test::perfect_report();
    cpu.environment.backend = "cpu";
    CHECK(leaderboard_exclusion(cpu) == "not timed on a GPU");
    CHECK(leaderboard_times(cpu).empty());
    GradeReport unsealed = test::perfect_report();
    unsealed.notes.push_back("not sealed: bubblewrap cannot create a user namespace here");
    CHECK(leaderboard_exclusion(unsealed) == "not sealed");
    CHECK(leaderboard_times(unsealed).empty());
  }
}

TEST_CASE("report::leaderboard_board_name") {
  const LeaderboardTime t{.step = "tiled", .size = "K=64,M=64,N=64"};
  CHECK(leaderboard_board_name(t, false) == "tiled");
  CHECK(leaderboard_board_name(t, true) == "tiled at K=64,M=64,N=64");
}

}  // namespace
}  // namespace cugrade
