// Lock-step timing with real runners on the CPU backend: an honest student and a caching cheat
// of assignment reduction against the reduction's reference runner (fixtures: lockstep.cmake).
#include "run/lockstep_timing.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>

#include "array_file.hpp"
#include "process/fake_process_runner.hpp"
#include "run/fake_server.hpp"
#include "run/lockstep_fixture.hpp"
#include "run/run_fixture.hpp"
#include "timing/timing_stats.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using namespace cugrade::test;

namespace {

/// How many runners were started in `dir` and its subfolders (each writes its own job file).
std::size_t runners_started(const fs::path& dir) {
  std::size_t count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().filename().string().ends_with(".job.json")) ++count;
  return count;
}

/// The names of `timed`'s phases, in order.
std::vector<std::string> phase_names(const TimingOutcome& timed) {
  std::vector<std::string> names;
  for (const auto& [name, seconds] : timed.phase_seconds) names.push_back(name);
  return names;
}

}  // namespace

/// The seconds `timed`'s phase `name` took.
double phase_seconds(const TimingOutcome& timed, const std::string& name) {
  for (const auto& [phase, seconds] : timed.phase_seconds)
    if (phase == name) return seconds;
  FAIL("no phase " << name);
  return 0.0;
}

TEST_CASE("run::later_warmup") {
  CHECK(later_warmup(0.1).seconds == doctest::Approx(0.02));
  CHECK(later_warmup(0.1).rounds == 3);
  CHECK(later_warmup(0.005).seconds == doctest::Approx(0.005));  // never more than the target's own
}

TEST_CASE("run::time_targets") {
  test::RunFixture fixture;
  const auto real = make_process_runner();
  ProcessRunner& processes = *real;
  const fs::path dir = fixture.dir;

  SUBCASE("an honest student: every sample taken, verified, and (tolerance not exact) both outputs written in full") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    TimeTask task = reduction_task(dir, 3000);
    task.atol = 0.5;
    const auto outcomes = time_targets(processes, student, {task}, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    REQUIRE(outcomes.size() == 1);
    const TimingOutcome& timed = outcomes[0];
    INFO(timed.status.message);
    CHECK(timed.status.outcome == Outcome::passed);
    CHECK(timed.verified);
    CHECK(timed.student_ms.size() >= 4);
    CHECK(timed.student_ms.size() == timed.reference_ms.size());
    CHECK(timed.student_wall_ms.size() == timed.student_ms.size());
    // The harness's clock, less the protocol's cost, reads about what the events read.
    for (double wall : timed.student_wall_ms) CHECK(wall >= 0.0);
    const auto ours = read_array_file(timed.student_output_file);
    const auto theirs = read_array_file(timed.reference_output_file);
    REQUIRE(ours);
    REQUIRE(theirs);
    CHECK(ours->at("out").data<std::int64_t>()[0] == theirs->at("out").data<std::int64_t>()[0]);
  }

  SUBCASE("a step of exact tolerance: every element compared by the digests, no output written in full") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    const auto outcomes = time_targets(processes, student, {reduction_task(dir, 3000)}, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    REQUIRE(outcomes.size() == 1);
    INFO(outcomes[0].status.message);
    CHECK(outcomes[0].status.outcome == Outcome::passed);
    CHECK(outcomes[0].verified);
    CHECK(outcomes[0].student_output_file.empty());
    CHECK(outcomes[0].reference_output_file.empty());
    CHECK(std::ranges::find(outcomes[0].phase_seconds, std::string("outputs"),
                            &std::pair<std::string, double>::first) == outcomes[0].phase_seconds.end());
    CHECK_FALSE(fs::exists(student.work_dir / "timing-0.student.out"));
  }

  SUBCASE("a sum one too large among trillions: within the buckets' rounding, caught by the exact part") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_NUDGING, dir);
    TimeTask task = reduction_task(dir, 3000, "reduce7", 1'000'000'000);
    // Every sample's sum in the trillions: no element's sign flipped on its own, which would
    // bring it down to about 10^11, where the buckets' rounding could see the one.
    task.sign_free_inputs.clear();
    const auto exact = time_targets(processes, student, {task}, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    REQUIRE(exact.size() == 1);
    INFO(exact[0].status.message);
    CHECK(exact[0].status.outcome == Outcome::passed);  // it ran; its results are wrong
    CHECK_FALSE(exact[0].verified);
    CHECK(exact[0].mismatch.find("exact digest") != std::string::npos);
    // With a tolerance of 2 the same sums are within it: verified, and compared in full later.
    task.atol = 2.0;
    const auto tolerant = time_targets(processes, student, {task}, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    REQUIRE(tolerant.size() == 1);
    CHECK(tolerant[0].verified);
    CHECK_FALSE(tolerant[0].student_output_file.empty());
  }

  SUBCASE("a student that caches its first result is caught at the next sample") {
    // Every sample flips each element's sign on its own (the sign-free input), so no two samples
    // have one sum; a rotation alone would leave it, and a negation alone give it two values.
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_CACHING, dir);
    const TimeTask task = reduction_task(dir, 3000);
    const auto outcomes = time_targets(processes, student, {task}, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    check_caught(outcomes);
  }

  SUBCASE("a student that answers its cached sum with the sample's sign is caught: each element's sign flips on its own") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_RECOGNISING, dir);
    TimeTask task = reduction_task(dir, 3000);
    task.min_samples = task.max_samples = 23;
    const auto outcomes = time_targets(processes, student, {task}, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    check_caught(outcomes);
  }

  SUBCASE("without sign-free inputs the same cheat passes every digest (what the flips close)") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_RECOGNISING, dir);
    TimeTask task = reduction_task(dir, 3000);
    task.sign_free_inputs.clear();
    task.min_samples = task.max_samples = 23;
    const auto outcomes = time_targets(processes, student, {task}, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    check_verified(outcomes);
  }

  SUBCASE("one runner per side serves every target: the reference's baselines first (beside its twin), then each target") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    std::vector<TimeTask> tasks{reduction_task(dir, 3000, "reduce6"), reduction_task(dir, 2000)};
    for (TimeTask& task : tasks) task.atol = 0.5;  // not exact: each target's outputs written in full
    const auto outcomes = time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    REQUIRE(outcomes.size() == 2);
    for (const TimingOutcome& timed : outcomes) {
      INFO(timed.status.message);
      CHECK(timed.status.outcome == Outcome::passed);
      CHECK(timed.verified);
      CHECK(timed.reference_alone_ms.size() >= 4);
      CHECK(timed.student_ms.size() >= 4);
    }
    CHECK(runners_started(dir) == 3);  // the reference, its twin for the baselines, the student's
    // The twin works in a folder of its own (a sealed runner's folder is handed to its own user).
    CHECK(runners_started(dir / "reference-twin") == 1);
    CHECK(runners_started(dir / "reference") == 1);
    CHECK(phase_names(outcomes[0]) == std::vector<std::string>{"reference start", "reference baseline", "your start",
                                                               "loading", "warm-up", "sampling", "outputs"});
    CHECK(phase_names(outcomes[1]) ==
          std::vector<std::string>{"reference baseline", "loading", "warm-up", "sampling", "outputs"});
    CHECK(outcomes[0].student_output_file != outcomes[1].student_output_file);
  }

  SUBCASE("a baseline kept from an earlier check serves the next: no twin is started") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    const std::vector<TimeTask> tasks{reduction_task(dir, 3000, "reduce6")};
    BaselineCache baselines;
    CHECK_FALSE(baselines_kept(&baselines, student, tasks, CUGRADE_LOCKSTEP_REFERENCE));
    CHECK_FALSE(baselines_kept(nullptr, student, tasks, CUGRADE_LOCKSTEP_REFERENCE));
    time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference", {&baselines});
    CHECK(runners_started(dir) == 3);
    CHECK(baselines_kept(&baselines, student, tasks, CUGRADE_LOCKSTEP_REFERENCE));
    const std::vector<double> kept = keep_baselines_that_never_blame(baselines, student, tasks);
    fs::remove_all(dir / "reference-twin");
    const auto second = time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference", {&baselines});
    CHECK_FALSE(fs::exists(dir / "reference-twin"));  // no twin started
    REQUIRE(second.size() == 1);
    CHECK(second[0].status.outcome == Outcome::passed);
    CHECK(second[0].reference_alone_ms == kept);
    // Both sides start at once: neither waits for the other.
    CHECK(phase_names(second[0]) == std::vector<std::string>{"start", "loading", "warm-up", "sampling"});
  }

  SUBCASE("a kept baseline that would blame the student is taken again by this reference process") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    const std::vector<TimeTask> tasks{reduction_task(dir, 3000, "reduce6")};
    BaselineCache baselines;
    // Another reference process's baseline, far faster than this one will be: an honest student
    // would be judged to have slowed the reference down.
    const std::vector<double> faster(10, 1e-6);
    baselines.store(baseline_key(CUGRADE_LOCKSTEP_REFERENCE, student.environment, tasks[0]), faster);
    const auto outcomes = time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference", {&baselines});
    REQUIRE(outcomes.size() == 1);
    INFO(outcomes[0].status.message);
    std::string phases;
    for (const auto& name : phase_names(outcomes[0])) phases += name + "; ";
    INFO(phases);
    CHECK(outcomes[0].status.outcome == Outcome::passed);
    CHECK(phase_names(outcomes[0]) ==
          std::vector<std::string>{"start", "loading", "warm-up", "sampling", "reference start", "reference baseline again"});
    CHECK(fs::exists(dir / "reference-twin"));  // a twin beside the same reference runner
    CHECK(outcomes[0].reference_alone_ms.size() >= 4);  // the task's min_samples; a steady runner stops there
    CHECK(outcomes[0].reference_alone_ms != faster);
    // It speaks for that process only: the kept one stays.
    CHECK(baselines.find(baseline_key(CUGRADE_LOCKSTEP_REFERENCE, student.environment, tasks[0])) == faster);
  }

  SUBCASE("a kept baseline that does not blame the student is believed: nothing taken again") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    const std::vector<TimeTask> tasks{reduction_task(dir, 3000, "reduce6")};
    BaselineCache baselines;
    baselines.store(baseline_key(CUGRADE_LOCKSTEP_REFERENCE, student.environment, tasks[0]), std::vector<double>(10, 1e6));
    const auto outcomes = time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference", {&baselines});
    REQUIRE(outcomes.size() == 1);
    CHECK(phase_names(outcomes[0]) == std::vector<std::string>{"start", "loading", "warm-up", "sampling"});
    CHECK_FALSE(fs::exists(dir / "reference-twin"));
  }

  SUBCASE("runners started early serve the targets: no runner is started by time_targets") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    const std::vector<TimeTask> tasks{reduction_task(dir, 3000, "reduce6"), reduction_task(dir, 2000)};
    BaselineCache baselines;
    time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference", {&baselines});
    keep_baselines_that_never_blame(baselines, student, tasks);
    REQUIRE(baselines_kept(&baselines, student, tasks, CUGRADE_LOCKSTEP_REFERENCE));
    const std::size_t before = runners_started(dir);
    EarlyRunners early = start_early_runners(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    CHECK(early.await_up(10.0));  // both contexts made: what a gated run waits for
    early.load(1);  // the second target, the one that will be timed first
    const auto outcomes = time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference",
                                       {&baselines, &early, {1, 0}});
    CHECK(runners_started(dir) == before + 2);  // the two early ones only
    REQUIRE(outcomes.size() == 2);
    for (const TimingOutcome& timed : outcomes) {
      INFO(timed.status.message);
      CHECK(timed.status.outcome == Outcome::passed);
      CHECK(timed.verified);
      CHECK(timed.student_ms.size() >= 4);
    }
    // Greeted in await_up: no start phase left for time_targets.
    CHECK(phase_names(outcomes[1]) == std::vector<std::string>{"loading", "warm-up", "sampling"});
    CHECK(phase_names(outcomes[0]) == std::vector<std::string>{"loading", "warm-up", "sampling"});
  }

  SUBCASE("early runners not greeted yet are greeted by time_targets, as its start phase") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    const std::vector<TimeTask> tasks{reduction_task(dir, 2000)};
    BaselineCache baselines;
    time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference", {&baselines});
    keep_baselines_that_never_blame(baselines, student, tasks);
    const std::size_t before = runners_started(dir);
    EarlyRunners early = start_early_runners(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    early.load(0);  // sent behind the start: each reads it once it has said hello
    const auto outcomes = time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference",
                                       {&baselines, &early});
    CHECK(runners_started(dir) == before + 2);
    REQUIRE(outcomes.size() == 1);
    CHECK(outcomes[0].status.outcome == Outcome::passed);
    CHECK(phase_names(outcomes[0]) == std::vector<std::string>{"start", "loading", "warm-up", "sampling"});
  }

  SUBCASE("an early runner that never says hello is ended by await_up, and time_targets starts a fresh one") {
    RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    const std::vector<TimeTask> tasks{reduction_task(dir, 2000)};
    BaselineCache baselines;
    time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference", {&baselines});
    keep_baselines_that_never_blame(baselines, student, tasks);
    RunRequest missing = student;
    missing.runner = dir / "no-such-runner";
    const std::size_t before = runners_started(dir);
    EarlyRunners early = start_early_runners(processes, missing, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    CHECK_FALSE(early.await_up(10.0));
    // The student's side ended, the reference's kept: time_targets (given the student's real
    // request) starts the student's afresh, and only that one.
    const auto outcomes = time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference",
                                       {&baselines, &early});
    REQUIRE(outcomes.size() == 1);
    INFO(outcomes[0].status.message);
    CHECK(outcomes[0].status.outcome == Outcome::passed);
    CHECK(phase_names(outcomes[0]).front() == "your start");
    CHECK(runners_started(dir) == before + 3);  // the two early ones (one never ran), the fresh student's
  }

  SUBCASE("an early runner asked for a target that is not timed answers for it first, then loads the one timed") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    const std::vector<TimeTask> tasks{reduction_task(dir, 3000, "reduce6"), reduction_task(dir, 2000)};
    BaselineCache baselines;
    time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference", {&baselines});
    keep_baselines_that_never_blame(baselines, student, tasks);
    EarlyRunners early = start_early_runners(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    early.load(0);
    const auto outcomes = time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference",
                                       {&baselines, &early, {1}});
    REQUIRE(outcomes.size() == 2);
    CHECK(outcomes[0].status.outcome == Outcome::not_run);  // not asked for: left as it was
    CHECK(outcomes[0].phase_seconds.empty());
    INFO(outcomes[1].status.message);
    CHECK(outcomes[1].status.outcome == Outcome::passed);
    CHECK(outcomes[1].verified);
  }

  SUBCASE("early runners never used are ended with their handle") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    const std::vector<TimeTask> tasks{reduction_task(dir, 3000)};
    {
      EarlyRunners early = start_early_runners(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
      REQUIRE(early.student.get() != nullptr);
      REQUIRE(early.reference.get() != nullptr);
      early.load(0);
    }
    // Their events files say they started; nothing is left holding the folders.
    CHECK(runners_started(dir) == 2);
    CHECK(start_early_runners(processes, student, {}, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference").student.get() == nullptr);
  }

  SUBCASE("the first target a pair of runners serves gets its whole warm-up, a later one a short one") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    std::vector<TimeTask> tasks{reduction_task(dir, 3000, "reduce6"), reduction_task(dir, 2000)};
    for (TimeTask& task : tasks) task.warmup_s = 1.0;
    BaselineCache baselines;
    time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference", {&baselines});
    keep_baselines_that_never_blame(baselines, student, tasks);
    const auto outcomes = time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference",
                                       {&baselines});
    REQUIRE(outcomes.size() == 2);
    CHECK(phase_seconds(outcomes[0], "warm-up") >= 1.0);
    CHECK(phase_seconds(outcomes[1], "warm-up") >= 0.02);
    CHECK(phase_seconds(outcomes[1], "warm-up") < 1.0);
    // CUGRADE_FULL_WARMUP=1: the whole warm-up for every target (a benchmark's comparison).
    setenv("CUGRADE_FULL_WARMUP", "1", 1);
    const auto full = time_targets(processes, student, tasks, CUGRADE_LOCKSTEP_REFERENCE, dir / "reference",
                                   {&baselines});
    unsetenv("CUGRADE_FULL_WARMUP");
    REQUIRE(full.size() == 2);
    CHECK(phase_seconds(full[1], "warm-up") >= 1.0);
  }

  SUBCASE("a step that crashes costs that step only: the next is timed by a fresh runner") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_CRASHING, dir);
    const auto outcomes = time_targets(processes, student, {reduction_task(dir, 3000, "reduce6"), reduction_task(dir, 2000)},
                                       CUGRADE_LOCKSTEP_REFERENCE, dir / "reference");
    REQUIRE(outcomes.size() == 2);
    CHECK(outcomes[0].status.outcome == Outcome::crashed);
    CHECK(outcomes[0].status.message.find("SIGABRT") != std::string::npos);
    INFO(outcomes[1].status.message);
    CHECK(outcomes[1].status.outcome == Outcome::passed);
    CHECK(outcomes[1].verified);
    CHECK(runners_started(dir) == 4);
    CHECK(phase_names(outcomes[1]).at(1) == "your start");
  }

  SUBCASE("a runner that does not exist is the harness's fault when it is the reference's") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_HONEST, dir);
    const auto outcomes = time_targets(processes, student, {reduction_task(dir, 100)}, dir / "no-such-runner", dir / "reference");
    REQUIRE(outcomes.size() == 1);
    CHECK(outcomes[0].status.outcome == Outcome::harness_error);
  }
}

TEST_CASE("run::time_targets stops the student's side on the times it is graded on") {
  // Work that escapes the events (a kernel on a stream of its own) makes them read next to
  // nothing, and noise: the wall clock is graded (timing_stats). Sampling that waited for the
  // events to be steady ran to the end of its budget or its most samples, 13 s of a self-test's
  // matmul entry on an H100 (docs/measurements.md); the steady wall clock ends it at once.
  test::RunFixture fixture;
  FakeProcessRunner processes;
  TimeTask task = reduction_task(fixture.dir, 100);
  task.min_samples = 5;
  task.max_samples = 200;
  // 20 %: the wall clock of a loaded machine (the whole suite on two cores) reaches it in a few
  // samples, the events below (one long in ten, a relative spread of 3) only after about 220.
  task.target_rse = 0.2;
  task.budget_s = 30.0;
  const RunRequest student = scripted_student(fixture.dir);
  BaselineCache baselines;
  keep_baselines_that_never_blame(baselines, student, {task});
  for (const bool theirs : {true, false}) {  // the reference's runner starts first
    processes.expect_interactive([theirs](const ProcessRequest&) {
      auto calls = std::make_shared<std::size_t>(0);
      return std::make_unique<test::FakeServer>([theirs, calls](const std::string& command) -> std::string {
        if (command == "task 0") return "loaded";
        if (command.starts_with("prepare ")) return "ready";
        if (command == "run") {
          if (theirs) return "ran 1.0";
          std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the work, outside the events
          return (*calls)++ % 10 ? "ran 0.001" : "ran 1.0";
        }
        if (command.starts_with("digest ")) return test::digest_reply();
        if (command.starts_with("write ")) return "written";
        return "what?";
      });
    });
  }
  const auto outcomes =
      time_targets(processes, student, {task}, CUGRADE_LOCKSTEP_REFERENCE, fixture.dir / "reference", {&baselines});
  REQUIRE(outcomes.size() == 1);
  INFO(outcomes[0].status.message);
  CHECK(outcomes[0].status.outcome == Outcome::passed);
  // The events alone would need about 220 samples to reach 20 %: the most, 200, would be taken.
  CHECK(outcomes[0].student_ms.size() >= 5);
  CHECK(outcomes[0].student_ms.size() < 50);
  const TimingStats graded = timing_stats(outcomes[0].student_ms, outcomes[0].student_wall_ms);
  CHECK(graded.wall_clock_samples == graded.samples);
  CHECK(graded.median_ms > 2.5);
}
