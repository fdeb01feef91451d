// passing_step_tasks, time_passing_steps, describe_phases and describe_timings (harness/src/pipeline/timed_steps.cpp):
// a step with a failed case is not timed, and says why; where a timed target's seconds went.
#include "pipeline/timed_steps.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>

#include "process/fake_process_runner.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
CaseResult case_of(const std::string& step, Outcome outcome) {
  CaseResult c;
  c.id = step + "/n=4/seed=1";
  c.step = step;
  c.outcome = outcome;
  return c;
}

TimeTask task_of(const std::string& step) {
  TimeTask task;
  task.id = "perf/" + step;
  task.step = step;
  return task;
}
}  // namespace

TEST_CASE("pipeline::passing_step_tasks") {
  const std::vector<TimeTask> tasks{task_of("naive"), task_of("tiled"), task_of("padded")};
  const std::vector<CaseResult> cases{case_of("naive", Outcome::wrong_answer), case_of("tiled", Outcome::passed),
                                      case_of("padded", Outcome::harness_error)};
  // naive failed; a case the harness could not grade is no failure of the student's.
  CHECK(passing_step_tasks(tasks, cases) == std::vector<std::size_t>{1, 2});
  CHECK(passing_step_tasks(tasks, {}) == std::vector<std::size_t>{0, 1, 2});
}

TEST_CASE("pipeline::time_passing_steps") {
  FakeProcessRunner processes;  // no runner scripted: starting one would be a failure
  RunRequest student;
  // Starting the reference's twin makes its folder beside the reference's: never in the cwd.
  const fs::path dir = fs::temp_directory_path() / ("cugrade-timed-steps-" + std::to_string(getpid()));
  fs::create_directories(dir);
  student.work_dir = dir / "run";
  const fs::path reference = dir / "ref";
  SUBCASE("a step with a failed case is not timed, and its outcome says how many failed") {
    const std::vector<CaseResult> cases{case_of("naive", Outcome::passed), case_of("naive", Outcome::wrong_answer),
                                        case_of("naive", Outcome::crashed), case_of("tiled", Outcome::timeout)};
    const auto outcomes =
        time_passing_steps(processes, student, {task_of("naive"), task_of("tiled")}, cases, "reference-runner", reference);
    REQUIRE(outcomes.size() == 2);
    CHECK(processes.requests().empty());
    CHECK(outcomes[0].status.outcome == Outcome::wrong_answer);
    CHECK(outcomes[0].status.message == "not timed: 2 of the 3 cases of step naive failed, and a step earns "
                                        "performance points only once every case passes");
    CHECK(outcomes[1].status.message.find("1 of the 1 cases of step tiled") != std::string::npos);
  }
  SUBCASE("a case the harness could not grade does not stop its step from being timed") {
    const std::vector<CaseResult> cases{case_of("naive", Outcome::harness_error)};
    const auto outcomes = time_passing_steps(processes, student, {task_of("naive")}, cases, "reference-runner", reference);
    REQUIRE(outcomes.size() == 1);
    CHECK(processes.requests().size() == 2);  // the reference runner and its twin were started (unscripted: failed)
    CHECK(outcomes[0].status.outcome == Outcome::harness_error);
  }
  fs::remove_all(dir);
}

TEST_CASE("pipeline::describe_phases") {
  TimingOutcome timed;
  timed.phase_seconds = {{"reference start", 0.5}, {"sampling", 1.25}};
  CHECK(describe_phases("tiled", timed) == "timed tiled in 1.8 s: reference start 0.50 s, sampling 1.25 s");
}

TEST_CASE("pipeline::describe_timings") {
  TimeTask naive, tiled;
  naive.step = "naive";
  tiled.step = "tiled";
  TimingOutcome ran, not_timed;
  ran.phase_seconds = {{"sampling", 0.25}};
  // A step that went through no phase (not passing, not timed) has no line.
  CHECK(describe_timings({naive, tiled}, {not_timed, ran}) ==
        std::vector<std::string>{"timed tiled in 0.2 s: sampling 0.25 s"});
  CHECK(describe_timings({naive}, {}).empty());
}
