// Lock-step timing of N-body with real runners on the CPU backend (fixtures: lockstep.cmake): its
// samples move every body that has room (Grader::movable_bodies), which keeps an honest student
// verified and catches a student that recognises a renumbered, mirrored cloud and answers the
// forces it kept; and its digests' spots catch errors of random sign the buckets cannot see.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "array_file.hpp"
#include "graders/grader.hpp"
#include "run/lockstep_fixture.hpp"
#include "run/lockstep_timing.hpp"
#include "run/run_fixture.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using namespace cugrade::test;

namespace {

/// A timing task of nbody's `step` at `params` on the grader's own inputs (written into `dir`),
/// tolerance `atol`, `rtol` as assignments/nbody/assignment.yaml gives it, the bodies movable as
/// the grader says and as the case plan passes them (velocities only where the step has them).
TimeTask nbody_task(const fs::path& dir, const std::string& step, const Params& params, double atol, double rtol) {
  const Grader* grader = find_grader("nbody");
  REQUIRE(grader != nullptr);
  const Case timed{"perf/" + step, step, params, 7, 0.0, Visibility::visible};
  Rng rng(timed.seed);
  const CaseData data = grader->generate(timed, rng);
  const fs::path inputs = dir / (step + ".in");
  REQUIRE(write_array_file(inputs.string(), data.inputs));
  TimeTask task;
  task.id = timed.id;
  task.step = task.reference_step = timed.step;
  task.params = timed.params;
  task.inputs_file = inputs.string();
  for (const auto& [name, array] : data.outputs) task.outputs[name] = OutputDecl{array.type, array.dims};
  task.atol = atol;
  task.rtol = rtol;
  task.movable_bodies = grader->movable_bodies;
  if (!data.inputs.contains("VX")) task.movable_bodies.vx = task.movable_bodies.vy = "";
  task.min_samples = task.max_samples = 8;
  task.budget_s = 20.0;
  task.warmup_s = 0.0;
  task.flush_bytes = 4096;
  return task;
}

/// accel_global on a cloud of `n` bodies.
TimeTask nbody_accel_task(const fs::path& dir, int n) {
  return nbody_task(dir, "accel_global", {{"N", n}, {"NT", 2}, {"nt", 1}}, 4.0, 2.0e-5);
}

/// The position step of `n` bodies: 6n outputs (X and Y of two rows, VX, VY).
TimeTask nbody_position_task(const fs::path& dir, int n) {
  return nbody_task(dir, "position", {{"N", n}, {"NT", 2}, {"nt", 1}}, 1.0e-6, 5.0e-7);
}

}  // namespace

TEST_CASE("run::time_targets moves N-body's bodies in every sample") {
  test::RunFixture fixture;
  const auto real = make_process_runner();
  const fs::path dir = fixture.dir;
  REQUIRE_FALSE(find_grader("nbody")->movable_bodies.empty());

  SUBCASE("an honest student stays verified on moved clouds") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_NBODY_HONEST, dir);
    const auto outcomes = time_targets(*real, student, {nbody_accel_task(dir, 384)}, CUGRADE_LOCKSTEP_NBODY_REFERENCE,
                                       dir / "reference");
    check_verified(outcomes, 8);
  }

  SUBCASE("a student answering the forces it kept, renumbered and negated, is caught") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_NBODY_RECOGNISING, dir);
    const auto outcomes = time_targets(*real, student, {nbody_accel_task(dir, 384)}, CUGRADE_LOCKSTEP_NBODY_REFERENCE,
                                       dir / "reference");
    check_caught(outcomes);
  }

  SUBCASE("without the moves the same student passes every digest (what the moves close)") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_NBODY_RECOGNISING, dir);
    TimeTask task = nbody_accel_task(dir, 384);
    task.movable_bodies = {};
    const auto outcomes = time_targets(*real, student, {task}, CUGRADE_LOCKSTEP_NBODY_REFERENCE, dir / "reference");
    check_verified(outcomes, 8);
  }
}

TEST_CASE("run::time_targets compares a few elements of every timed call one by one") {
  test::RunFixture fixture;
  const auto real = make_process_runner();
  const fs::path dir = fixture.dir;

  SUBCASE("an honest position step, its velocities moved too, is verified") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_NBODY_HONEST, dir);
    const TimeTask task = nbody_position_task(dir, 50000);
    CHECK(task.movable_bodies.vx == "VX");
    const auto outcomes = time_targets(*real, student, {task}, CUGRADE_LOCKSTEP_NBODY_REFERENCE, dir / "reference");
    check_verified(outcomes, 8);
  }

  SUBCASE("errors of five tolerances and random sign, which cancel in the buckets, are caught by the spots") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_NBODY_SLOPPY, dir);
    const auto outcomes = time_targets(*real, student, {nbody_position_task(dir, 50000)},
                                       CUGRADE_LOCKSTEP_NBODY_REFERENCE, dir / "reference");
    // The buckets are compared first: the spots' words mean every bucket was within its bound.
    check_caught(outcomes, "an element the digest's key chose");
  }
}
