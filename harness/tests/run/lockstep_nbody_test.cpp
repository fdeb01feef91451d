// Lock-step timing of N-body with real runners on the CPU backend (fixtures: lockstep.cmake): its
// samples move every body that has room (Grader::movable_bodies), which keeps an honest student
// verified and catches a student that recognises a renumbered, mirrored cloud and answers the
// forces it kept.
#include <doctest/doctest.h>

#include <filesystem>

#include "array_file.hpp"
#include "graders/grader.hpp"
#include "run/lockstep_fixture.hpp"
#include "run/lockstep_timing.hpp"
#include "run/run_fixture.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using namespace cugrade::test;

namespace {

/// A timing task of nbody's accel_global on the grader's own cloud of `n` bodies (its inputs
/// written into `dir`), the bodies movable as the grader says and as the case plan passes them
/// (no velocities in this step).
TimeTask nbody_accel_task(const fs::path& dir, int n) {
  const Grader* grader = find_grader("nbody");
  REQUIRE(grader != nullptr);
  const Case timed{"perf/accel_global", "accel_global", {{"N", n}, {"NT", 2}, {"nt", 1}}, 7, 0.0, Visibility::visible};
  Rng rng(timed.seed);
  const CaseData data = grader->generate(timed, rng);
  const fs::path inputs = dir / "accel_global.in";
  REQUIRE(write_array_file(inputs.string(), data.inputs));
  TimeTask task;
  task.id = timed.id;
  task.step = task.reference_step = timed.step;
  task.params = timed.params;
  task.inputs_file = inputs.string();
  for (const auto& [name, array] : data.outputs) task.outputs[name] = OutputDecl{array.type, array.dims};
  task.atol = 4.0;  // assignments/nbody/assignment.yaml's accelerations
  task.rtol = 2.0e-5;
  task.movable_bodies = grader->movable_bodies;
  task.movable_bodies.vx = task.movable_bodies.vy = "";
  task.min_samples = task.max_samples = 8;
  task.budget_s = 20.0;
  task.warmup_s = 0.0;
  task.flush_bytes = 4096;
  return task;
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
    REQUIRE(outcomes.size() == 1);
    CHECK(outcomes[0].status.outcome == Outcome::passed);
    CHECK(outcomes[0].verified);
    CHECK(outcomes[0].mismatch.empty());
  }

  SUBCASE("a student answering the forces it kept, renumbered and negated, is caught") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_NBODY_RECOGNISING, dir);
    const auto outcomes = time_targets(*real, student, {nbody_accel_task(dir, 384)}, CUGRADE_LOCKSTEP_NBODY_REFERENCE,
                                       dir / "reference");
    REQUIRE(outcomes.size() == 1);
    CHECK(outcomes[0].status.outcome == Outcome::passed);  // it ran; its results are wrong
    CHECK_FALSE(outcomes[0].verified);
    CHECK(outcomes[0].mismatch.find("differ from the reference") != std::string::npos);
  }

  SUBCASE("without the moves the same student passes every digest (what the moves close)") {
    const RunRequest student = student_request(CUGRADE_LOCKSTEP_NBODY_RECOGNISING, dir);
    TimeTask task = nbody_accel_task(dir, 384);
    task.movable_bodies = {};
    const auto outcomes = time_targets(*real, student, {task}, CUGRADE_LOCKSTEP_NBODY_REFERENCE, dir / "reference");
    REQUIRE(outcomes.size() == 1);
    CHECK(outcomes[0].status.outcome == Outcome::passed);
    CHECK(outcomes[0].verified);
    CHECK(outcomes[0].mismatch.empty());
  }
}
