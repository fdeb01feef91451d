#include "bench/bench_plan.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

#include "bench/bench_fixture.hpp"

using namespace cugrade;

TEST_CASE("bench::plan_bench") {
  const Spec spec = test::bench_twice_spec();
  test::BenchTempDir work;
  BenchPlanOptions options;
  options.settings.budget_s = 0.25;
  options.settings.max_samples = 40;
  options.gold = GoldTiming{.budget_s = 0.0, .max_calls = 1};

  SUBCASE("one reference-only timing task per row, the table's size, no verification") {
    const BenchPlan plan = plan_bench(spec, test::twice_grader, options, work.path);
    REQUIRE(plan.job.timings.size() == 3);
    const std::vector<std::string> ids{"bench/1/simple", "bench/1/fast", "bench/2/fast"};
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const TimeTask& task = plan.job.timings[i];
      CHECK(task.id == ids[i]);
      CHECK(task.reference_only);
      CHECK(task.step.empty());
      CHECK(task.verify_inputs_file.empty());
      CHECK(task.reference_output_file.empty());
      CHECK(task.budget_s == 0.25);
      CHECK(task.max_samples == 40);
      CHECK(task.min_samples == 10);
      CHECK(task.target_rse == 0.005);
    }
    CHECK(plan.job.timings[0].reference_step == "simple");
    CHECK(plan.job.timings[2].reference_step == "fast");
    CHECK(plan.job.timings[2].params == Params{{"n", 65536}});
    CHECK(plan.job.timings[2].outputs.at("y").dims == std::vector<std::int64_t>{65536});
    REQUIRE(plan.tables.size() == 2);
    CHECK(plan.tables[0].task_ids == std::vector<std::string>{"bench/1/simple", "bench/1/fast"});
    CHECK(plan.tables[0].works[0].bytes == 8.0 * 4096);
    CHECK(plan.tables[0].problems == std::vector<std::string>{"", ""});
  }

  SUBCASE("rows of one table share their input file when their inputs are the same") {
    const BenchPlan plan = plan_bench(spec, test::twice_grader, options, work.path);
    CHECK(plan.job.timings[0].inputs_file == plan.job.timings[1].inputs_file);
    CHECK(plan.job.timings[0].inputs_file != plan.job.timings[2].inputs_file);
    const auto inputs = read_array_file(plan.job.timings[0].inputs_file);
    REQUIRE(inputs.has_value());
    CHECK(inputs->at("x").dims == std::vector<std::int64_t>{4096});
  }

  SUBCASE("the CPU gold is timed for tables with rate, and a note says why not elsewhere") {
    const BenchPlan plan = plan_bench(spec, test::twice_grader, options, work.path);
    REQUIRE(plan.tables[0].cpu_gold_ms.has_value());
    CHECK(*plan.tables[0].cpu_gold_ms > 0.0);
    CHECK(plan.tables[0].notes.empty());
    CHECK_FALSE(plan.tables[1].cpu_gold_ms.has_value());
    CHECK(plan.tables[1].notes ==
          std::vector<std::string>{"no Rate column: this table does not time the CPU gold (rate: false)"});
    options.cpu_rate = false;
    const BenchPlan off = plan_bench(spec, test::twice_grader, options, work.path);
    CHECK_FALSE(off.tables[0].cpu_gold_ms.has_value());
    CHECK(off.tables[0].notes ==
          std::vector<std::string>{"no Rate column: the CPU gold was not timed (--no-cpu-rate)"});
  }

  SUBCASE("a size the grader refuses leaves that row without a task, saying why") {
    Grader picky = test::twice_grader;
    picky.generate = [](const Case& c, Rng& rng) {
      if (c.params.at("n") > 10000) throw std::invalid_argument("twice takes n <= 10000");
      return test::twice_grader.generate(c, rng);
    };
    const BenchPlan plan = plan_bench(spec, picky, options, work.path);
    CHECK(plan.job.timings.size() == 2);
    CHECK(plan.tables[1].task_ids == std::vector<std::string>{""});
    CHECK(plan.tables[1].problems ==
          std::vector<std::string>{"the grader cannot generate inputs for this table: twice takes n <= 10000"});
  }
}
