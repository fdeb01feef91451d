// Race detection by two schedules: which tasks are run again, how their outputs are compared,
// and what the student reads when they differ.
#include "pipeline/schedule_race.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "run/fake_runner.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using namespace cugrade::test;

namespace {

/// A fresh folder, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "cugrade-race-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

CheckTask task_in(const fs::path& dir, const std::string& id, const std::string& stem) {
  CheckTask task;
  task.id = id;
  task.step = "tiled";
  task.inputs_file = (dir / (stem + ".in")).string();
  task.output_file = (dir / (stem + ".out")).string();
  task.readback_file = (dir / (stem + ".readback")).string();
  return task;
}

RunOutcome outcome_of(std::map<std::string, Outcome> outcomes) {
  RunOutcome ran;
  for (const auto& [id, outcome] : outcomes) ran.tasks[id].outcome = outcome;
  return ran;
}

CaseResult case_result(std::string id, Outcome outcome, std::string message = {}) {
  CaseResult c;
  c.id = std::move(id);
  c.outcome = outcome;
  c.max_points = 2.0;
  c.message = std::move(message);
  return c;
}

}  // namespace

TEST_CASE("schedule_race::rerun_job") {
  TempDir dir;
  Job job;
  job.checks = {task_in(dir.path, "tiled/1", "case-0"), task_in(dir.path, "tiled/2", "case-1"),
                task_in(dir.path, "tiled/3", "case-2")};
  job.timings.push_back(TimeTask{});
  const RunOutcome ran = outcome_of({{"tiled/1", Outcome::passed}, {"tiled/2", Outcome::timeout},
                                     {"tiled/3", Outcome::passed}});
  const Job again = rerun_job(job, ran, dir.path / "reverse");

  SUBCASE("only the check tasks that finished run again") {
    REQUIRE(again.checks.size() == 2);
    CHECK(again.checks[0].id == "tiled/1");
    CHECK(again.checks[1].id == "tiled/3");
    CHECK(again.timings.empty());
  }
  SUBCASE("they read the same inputs and write their own outputs") {
    CHECK(again.checks[0].inputs_file == job.checks[0].inputs_file);
    CHECK(again.checks[0].output_file == (dir.path / "reverse" / "case-0.out").string());
    CHECK(again.checks[0].readback_file == (dir.path / "reverse" / "case-0.readback").string());
  }
}

TEST_CASE("schedule_race::outputs_differ") {
  TempDir dir;
  write(dir.path / "a", std::string("\x01\x02\x00\x04", 4));
  SUBCASE("same bytes") {
    write(dir.path / "b", std::string("\x01\x02\x00\x04", 4));
    CHECK_FALSE(outputs_differ(dir.path / "a", dir.path / "b"));
  }
  SUBCASE("one byte after a zero byte differs") {
    write(dir.path / "b", std::string("\x01\x02\x00\x05", 4));
    CHECK(outputs_differ(dir.path / "a", dir.path / "b"));
  }
  SUBCASE("a different length") {
    write(dir.path / "b", std::string("\x01\x02\x00", 3));
    CHECK(outputs_differ(dir.path / "a", dir.path / "b"));
  }
  SUBCASE("a missing file is no evidence of a race") {
    CHECK_FALSE(outputs_differ(dir.path / "a", dir.path / "missing"));
  }
}

TEST_CASE("schedule_race::mark_schedule_race") {
  SUBCASE("a pass becomes a wrong answer that names the race") {
    CaseResult c = case_result("tiled/1", Outcome::passed, "all 4096 elements within tolerance");
    mark_schedule_race(c);
    CHECK(c.outcome == Outcome::wrong_answer);
    CHECK(c.message ==
          "results change when the order of threads changes: a race (e.g. a missing __syncthreads()) — "
          "schedule forward and reverse gave different outputs");
  }
  SUBCASE("a failure keeps its outcome and message, and gets the sentence appended") {
    CaseResult c = case_result("tiled/1", Outcome::wrong_answer, "37 of 4096 elements are wrong");
    mark_schedule_race(c);
    CHECK(c.outcome == Outcome::wrong_answer);
    CHECK(c.message == std::string("37 of 4096 elements are wrong — ") + schedule_race_message);
  }
}

TEST_CASE("schedule_race::check_schedule_races") {
  TempDir dir;
  RunRequest first;
  first.runner = dir.path / "runner";
  first.work_dir = dir.path;
  first.job.checks = {task_in(dir.path, "tiled/1", "case-0"), task_in(dir.path, "tiled/2", "case-1"),
                      task_in(dir.path, "tiled/3", "case-2")};
  first.environment = {{"PATH", "/usr/bin"}, {schedule_variable, "forward"}};
  // The first run: tiled/1 and tiled/2 wrote outputs; tiled/3 crashed.
  write(dir.path / "case-0.out", "same");
  write(dir.path / "case-1.out", "forward");
  const RunOutcome ran = outcome_of({{"tiled/1", Outcome::passed}, {"tiled/2", Outcome::passed},
                                     {"tiled/3", Outcome::crashed}});
  std::vector<CaseResult> cases = {case_result("tiled/1", Outcome::passed), case_result("tiled/2", Outcome::passed),
                                   case_result("tiled/3", Outcome::crashed, "the program died")};

  // The second run: a runner whose tiled/2 output depends on the schedule it is given.
  FakeProcessRunner processes;
  std::vector<Job> jobs;
  processes.expect(scripted_runner(
      [](const Job& job, const std::string& id, const ProcessRequest& request) -> std::optional<ProcessResult> {
        const std::string schedule = request.environment.at(schedule_variable);
        for (const auto& t : job.checks)
          if (t.id == id) write(t.output_file, id == "tiled/2" ? schedule : "same");
        return std::nullopt;
      },
      &jobs));
  const std::size_t marked = check_schedule_races(processes, first, ran, cases);

  SUBCASE("the second run gets the reverse schedule and only the finished tasks") {
    REQUIRE(processes.requests().size() == 1);
    CHECK(processes.requests()[0].environment.at(schedule_variable) == "reverse");
    CHECK(processes.requests()[0].environment.at("PATH") == "/usr/bin");
    REQUIRE(jobs.size() == 1);
    REQUIRE(jobs[0].checks.size() == 2);
    CHECK(jobs[0].checks[0].id == "tiled/1");
    CHECK(jobs[0].checks[1].id == "tiled/2");
  }
  SUBCASE("the first run's files are left as they were") {
    std::ifstream in(dir.path / "case-1.out");
    std::string text;
    in >> text;
    CHECK(text == "forward");
  }
  SUBCASE("only the case whose outputs changed is marked") {
    CHECK(marked == 1);
    CHECK(cases[0].outcome == Outcome::passed);
    CHECK(cases[1].outcome == Outcome::wrong_answer);
    CHECK(cases[1].message == schedule_race_message);
    CHECK(cases[2].outcome == Outcome::crashed);
    CHECK(cases[2].message == "the program died");
  }
  SUBCASE("nothing finished: no second run at all") {
    FakeProcessRunner idle;
    const RunOutcome none = outcome_of({{"tiled/1", Outcome::timeout}, {"tiled/2", Outcome::crashed},
                                        {"tiled/3", Outcome::crashed}});
    CHECK(check_schedule_races(idle, first, none, cases) == 0);
    CHECK(idle.requests().empty());
  }
}
