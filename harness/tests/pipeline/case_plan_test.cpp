// graded_cases() and plan_cases(): which cases a check runs, and what the runner is asked to call.
#include "pipeline/case_plan.hpp"

#include <doctest/doctest.h>

#include "pipeline/case_materials.hpp"

#include "pipeline/twice_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {

/// The spec of "twice" with a third step, "exact", that only the reference implements.
Spec with_reference_only_step(Spec spec) {
  Step exact = spec.steps.front();
  exact.name = "exact";
  exact.entry = "twice_exact";
  exact.reference_only = true;
  spec.steps.push_back(exact);
  return spec;
}

/// A performance target of `step` at n = `n`, worth a point, against the reference's same step.
PerformanceTarget timing_target(const std::string& step, std::int64_t n) {
  PerformanceTarget target;
  target.step = target.reference = step;
  target.params = Params{{"n", n}};
  target.points = 1.0;
  return target;
}

std::vector<std::string> steps_of(const std::vector<Case>& cases) {
  std::vector<std::string> steps;
  for (const auto& c : cases) steps.push_back(c.step);
  return steps;
}

}  // namespace

TEST_CASE("pipeline::graded_cases") {
  PipelineFixture fixture;
  const Spec spec = with_reference_only_step(fixture.spec);
  const std::vector<Case> all = expand_cases(spec, std::nullopt);
  REQUIRE(steps_of(all) == std::vector<std::string>{"simple", "simple", "fast", "fast", "exact", "exact"});

  SUBCASE("a student's check leaves the reference-only steps out") {
    CHECK(steps_of(graded_cases(spec, all, false)) == std::vector<std::string>{"simple", "simple", "fast", "fast"});
  }
  SUBCASE("the self-test's reference entry keeps them, in order") {
    CHECK(steps_of(graded_cases(spec, all, true)) == steps_of(all));
  }
}

TEST_CASE("pipeline::plan_cases") {
  PipelineFixture fixture;
  const Spec spec = with_reference_only_step(fixture.spec);
  fs::create_directories(fixture.work());

  SUBCASE("a reference-only step's case calls the reference; a student's step the student") {
    const std::vector<Case> cases = graded_cases(spec, expand_cases(spec, std::nullopt), true);
    const CasePlan plan = plan_cases(spec, twice_grader, cases, {}, fixture.work());
    REQUIRE(plan.job.checks.size() == 6);
    for (const CheckTask& task : plan.job.checks) {
      CAPTURE(task.id);
      CHECK(task.reference == (task.step == "exact"));
    }
    CHECK(plan.cases.size() == 6);
  }

  SUBCASE("timed steps of one size share one inputs file; another size gets its own") {
    const std::string first = spec.steps.front().name;
    CaseMaterials materials;
    const CasePlan plan = plan_cases(spec, twice_grader, {},
                                     {timing_target(first, 64), timing_target("exact", 64), timing_target(first, 32)},
                                     fixture.work(), &materials);
    REQUIRE(plan.job.timings.size() == 3);
    CHECK(plan.job.timings[0].inputs_file == plan.job.timings[1].inputs_file);
    CHECK(plan.job.timings[2].inputs_file != plan.job.timings[0].inputs_file);
    for (const TimeTask& task : plan.job.timings) CHECK(fs::exists(task.inputs_file));
    CHECK(std::distance(fs::directory_iterator(fixture.work() / "inputs"), fs::directory_iterator{}) == 2);
  }
  SUBCASE("a timing names the grader's sign-free inputs that its step has, and no other") {
    const PerformanceTarget target = timing_target(spec.steps.front().name, 64);
    Grader signed_grader = twice_grader;
    signed_grader.sign_free_inputs = {"x", "not_an_input_of_twice"};
    const CasePlan plan = plan_cases(spec, signed_grader, {}, {target}, fixture.work());
    REQUIRE(plan.job.timings.size() == 1);
    CHECK(plan.job.timings[0].sign_free_inputs == std::vector<std::string>{"x"});
    fs::create_directories(fixture.work() / "unsigned");
    const CasePlan unsigned_plan = plan_cases(spec, twice_grader, {}, {target}, fixture.work() / "unsigned");
    CHECK(unsigned_plan.job.timings[0].sign_free_inputs.empty());
  }
  SUBCASE("a timing's movable bodies: positions only where its step has both, velocities only where both") {
    const PerformanceTarget target = timing_target(spec.steps.front().name, 64);
    Grader moving = twice_grader;
    moving.movable_bodies = {.x = "x", .y = "x", .vx = "x", .vy = "not_an_input", .keep_apart = 0.5, .reach = 0.1,
                             .speed = 2.0};
    const CasePlan plan = plan_cases(spec, moving, {}, {target}, fixture.work());
    REQUIRE(plan.job.timings.size() == 1);
    const MovableBodies& bodies = plan.job.timings[0].movable_bodies;
    CHECK(bodies.x == "x");
    CHECK(bodies.y == "x");
    CHECK(bodies.vx.empty());
    CHECK(bodies.vy.empty());
    CHECK(bodies.reach == 0.1);
    moving.movable_bodies.y = "not_an_input";
    fs::create_directories(fixture.work() / "half");
    const CasePlan half = plan_cases(spec, moving, {}, {target}, fixture.work() / "half");
    CHECK(half.job.timings[0].movable_bodies.empty());
  }
}
