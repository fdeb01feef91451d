#pragma once
// What the lock-step timing tests share (lockstep_timing_test.cpp, lockstep_session_test.cpp):
// reduction timing tasks, the students' requests (a real CPU runner of lockstep.cmake's, or one
// the fake process runner plays) and baselines kept so that no twin is started.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "array_file.hpp"
#include "job.hpp"
#include "run/baseline_cache.hpp"
#include "run/lockstep_timing.hpp"
#include "run/run_fixture.hpp"
#include "run/run_job.hpp"

namespace cugrade::test {

namespace fs = std::filesystem;

/// A timing task of reduction step `step` on `n` random ints, its inputs written into `dir`.
inline TimeTask reduction_task(const fs::path& dir, int n, const std::string& step = "reduce7", int offset = 0) {
  Array in = make_array(DType::i32, {n});
  for (int i = 0; i < n; ++i) in.data<std::int32_t>()[i] = offset + (i * 7919) % 2001 - 1000;
  const fs::path inputs = dir / (step + ".in");
  REQUIRE(write_array_file(inputs.string(), {{"in", in}}));
  TimeTask task;
  task.id = "perf/" + step;
  task.step = task.reference_step = step;
  task.params = {{"n", n}};
  task.inputs_file = inputs.string();
  task.outputs = {{"out", OutputDecl{DType::i64, {1}}}};
  task.sign_free_inputs = {"in"};  // as the reduction's grader says
  task.min_samples = 4;
  task.max_samples = 6;
  task.budget_s = 5.0;
  task.warmup_s = 0.0;
  task.flush_bytes = 4096;
  return task;
}

/// Checks that the one target of `outcomes` ran to its end with results the digests refused
/// (`words`: what the refusal must say).
inline void check_caught(const std::vector<TimingOutcome>& outcomes, const std::string& words = "differ from the reference") {
  REQUIRE(outcomes.size() == 1);
  CHECK(outcomes[0].status.outcome == Outcome::passed);  // it ran; its results are wrong
  CHECK_FALSE(outcomes[0].verified);
  CHECK(outcomes[0].mismatch.find(words) != std::string::npos);
}

/// Checks that the one target of `outcomes` ran to its end, at least `samples` samples a side,
/// with every timed call verified.
inline void check_verified(const std::vector<TimingOutcome>& outcomes, std::size_t samples = 1) {
  REQUIRE(outcomes.size() == 1);
  CHECK(outcomes[0].status.outcome == Outcome::passed);
  CHECK(outcomes[0].verified);
  CHECK(outcomes[0].mismatch.empty());
  CHECK(outcomes[0].student_ms.size() >= samples);
  CHECK(outcomes[0].reference_ms.size() >= samples);
}

/// The student's request: its runner, its own folder, the CPU executor on one thread.
inline RunRequest student_request(const fs::path& runner, const fs::path& dir) {
  RunRequest request;
  request.runner = runner;
  request.work_dir = dir / "run";
  request.task_timeout_s = 20.0;
  request.environment = runner_environment();
  request.environment["CUGRADE_CPU_THREADS"] = "1";
  fs::create_directories(request.work_dir);
  fs::create_directories(dir / "reference");
  return request;
}

/// A student's request whose runner the fake process runner plays (its folders made in `dir`).
inline RunRequest scripted_student(const fs::path& dir) {
  RunRequest request;
  request.runner = dir / "runner";
  request.work_dir = dir / "run";
  fs::create_directories(request.work_dir);
  fs::create_directories(dir / "reference");
  return request;
}

/// Keeps, for each of `tasks`, a baseline far slower than any reference process: one that never
/// says the student's runner slowed the reference, so that a test of which runners start is not
/// decided by the CPU backend's noise (a baseline that blames is taken again, with a twin).
inline std::vector<double> keep_baselines_that_never_blame(BaselineCache& baselines, const RunRequest& student,
                                                           const std::vector<TimeTask>& tasks) {
  const std::vector<double> slow(10, 1e6);
  for (const TimeTask& task : tasks) baselines.store(baseline_key(CUGRADE_LOCKSTEP_REFERENCE, student.environment, task), slow);
  return slow;
}

}  // namespace cugrade::test
