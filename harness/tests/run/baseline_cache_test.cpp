// BaselineCache (harness/src/run/baseline_cache.cpp): a baseline serves later checks for its
// lifetime, under its own key only.
#include "run/baseline_cache.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using namespace cugrade;

TEST_CASE("run::BaselineCache") {
  SUBCASE("a stored baseline is found under its key, and only there") {
    BaselineCache cache(30.0);
    CHECK_FALSE(cache.find("gpu 0 / naive").has_value());
    cache.store("gpu 0 / naive", {1.0, 2.0});
    REQUIRE(cache.find("gpu 0 / naive").has_value());
    CHECK(*cache.find("gpu 0 / naive") == std::vector<double>{1.0, 2.0});
    CHECK_FALSE(cache.find("gpu 1 / naive").has_value());
  }
  SUBCASE("past its lifetime a baseline is taken again") {
    BaselineCache cache(0.01);
    cache.store("k", {1.0});
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    CHECK_FALSE(cache.find("k").has_value());
    cache.store("k", {3.0});
    CHECK(*cache.find("k") == std::vector<double>{3.0});
  }
}

TEST_CASE("run::baseline_key") {
  TimeTask task;
  task.id = "perf/naive";
  task.step = "naive";
  task.reference_step = "naive";
  task.params = {{"M", 2048}, {"N", 2048}};
  task.inputs_file = "/work/a/timing-0.in";
  const std::map<std::string, std::string> gpu0{{"CUDA_VISIBLE_DEVICES", "0"}};
  const std::string key = baseline_key("/build/reference-runner", gpu0, task);
  SUBCASE("either side's copy of a target, and another check's inputs folder, share the key") {
    TimeTask student = task;
    student.step = "my_naive";  // the student's side calls its own step; the baseline is the reference's
    student.inputs_file = "/work/b/timing-0.in";
    CHECK(baseline_key("/build/reference-runner", gpu0, student) == key);
  }
  SUBCASE("another GPU, reference, size or reference step is another baseline") {
    CHECK(baseline_key("/build/reference-runner", {{"CUDA_VISIBLE_DEVICES", "1"}}, task) != key);
    CHECK(baseline_key("/build/reference-runner", {}, task) != key);
    CHECK(baseline_key("/other/reference-runner", gpu0, task) != key);
    TimeTask bigger = task;
    bigger.params["N"] = 4096;
    CHECK(baseline_key("/build/reference-runner", gpu0, bigger) != key);
    TimeTask tiled = task;
    tiled.reference_step = "tiled";
    CHECK(baseline_key("/build/reference-runner", gpu0, tiled) != key);
  }
}
