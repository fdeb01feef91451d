#include "batch/progress.hpp"

#include <doctest/doctest.h>

#include <sstream>

#include "batch/record_samples.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::progress_bar_line") {
  ProgressState state;
  state.total = 120;
  SUBCASE("before anything finished: no rate, no time left") {
    CHECK(progress_bar_line(state, 10) == "[----------]   0/120");
  }
  SUBCASE("counts per outcome, the rate per minute and the time left") {
    state.done = 60;
    state.outcomes = {{Outcome::passed, 40}, {Outcome::wrong_answer, 15}, {Outcome::compile_error, 5}};
    state.elapsed_s = 300.0;
    CHECK(progress_bar_line(state, 10) ==
          "[#####-----]  60/120  12.0/min  5:00 left  passed 40 · wrong_answer 15 · compile_error 5");
  }
  SUBCASE("done") {
    state.done = 120;
    state.outcomes = {{Outcome::passed, 120}};
    state.elapsed_s = 4000.0;
    CHECK(progress_bar_line(state, 4) == "[####] 120/120  1.8/min  0:00 left  passed 120");
  }
}

TEST_CASE("batch::fit_to_width") {
  CHECK(fit_to_width("[##--] 2/4  passed 1 · timeout 1", 0) == "[##--] 2/4  passed 1 · timeout 1");
  CHECK(fit_to_width("[##--] 2/4  passed 1 · timeout 1", 40) == "[##--] 2/4  passed 1 · timeout 1");
  CHECK(fit_to_width("[##--] 2/4  passed 1 · timeout 1", 23) == "[##--] 2/4  passed 1 ·");  // "·" is one column
  CHECK(fit_to_width("abc", 3) == "ab");
}

TEST_CASE("batch::progress_plain_line") {
  ProgressState state;
  state.total = 120;
  state.done = 7;
  SUBCASE("graded: outcome, points, time") {
    CHECK(progress_plain_line(state, sample_record("alice", Outcome::passed, Outcome::wrong_answer, 1.5)) ==
          "[  7/120] alice: wrong_answer, 3.5/7 points (5.3 s)");
  }
  SUBCASE("not gradable: the build's first line") {
    CHECK(progress_plain_line(state, failed_build_record("bob", Outcome::compile_error, "twice.cu:3: error: x\nmore")) ==
          "[  7/120] bob: compile_error, 0/7 points (5.3 s): twice.cu:3: error: x");
  }
  SUBCASE("a harness error: no points, the note") {
    StudentRecord fault = sample_record("carol", Outcome::passed, Outcome::passed, 3.0);
    fault.report.outcome = Outcome::harness_error;
    fault.report.notes = {"not graded: a fault of cugrade's: boom"};
    CHECK(progress_plain_line(state, fault) == "[  7/120] carol: harness_error (5.3 s): not graded: a fault of cugrade's: boom");
  }
}

TEST_CASE("batch::BatchProgress") {
  std::ostringstream out;
  double now = 0.0;
  SUBCASE("lines: one per finished submission, nothing redrawn") {
    BatchProgress progress(out, ProgressStyle::lines, [&now] { return now; });
    progress.planned(3, 2);
    progress.log("bob: graded again: its files changed since it was graded");
    now = 10.0;
    progress.finished(sample_record("alice", Outcome::passed, Outcome::passed, 3.0));
    progress.close();
    CHECK(out.str() ==
          "cugrade: 3 submissions: grading 2, 1 already graded and unchanged\n"
          "cugrade: bob: graded again: its files changed since it was graded\n"
          "cugrade: [1/2] alice: passed, 7/7 points (5.3 s)\n");
  }
  SUBCASE("bar: redrawn in place, log lines above it, a newline at the end") {
    BatchProgress progress(out, ProgressStyle::bar, [&now] { return now; });
    progress.planned(1, 1);
    now = 30.0;
    progress.finished(sample_record("alice", Outcome::passed, Outcome::passed, 3.0));
    progress.close();
    CHECK(out.str() ==
          "cugrade: 1 submission: grading 1\n"
          "\r\033[K[------------------------] 0/1"
          "\r\033[K[########################] 1/1  2.0/min  0:00 left  passed 1\n");
  }
  SUBCASE("bar on a narrow terminal: cut, never wrapped") {
    BatchProgress progress(out, ProgressStyle::bar, [&now] { return now; }, 20);
    progress.planned(1, 1);
    CHECK(out.str() == "cugrade: 1 submission: grading 1\n\r\033[K[------------------");
  }
  SUBCASE("none: silent") {
    BatchProgress progress(out, ProgressStyle::none, [&now] { return now; });
    progress.planned(1, 1);
    progress.log("x");
    progress.finished(sample_record("alice", Outcome::passed, Outcome::passed, 3.0));
    progress.close();
    CHECK(out.str().empty());
  }
}
