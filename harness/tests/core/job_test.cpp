// The job (harness → runner) and the event stream (runner → harness).
#include "job.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

TEST_CASE("runtime::job_to_json") {
  cugrade::Job job;
  job.events_file = "/w/events.jsonl";
  cugrade::CheckTask check;
  check.id = "naive/M=1/seed=1";
  check.step = "naive";
  check.params = {{"M", 1}};
  check.inputs_file = "/w/case-0.in";
  check.outputs["C"] = {cugrade::DType::f32, {1, 1}};
  check.output_file = "/w/case-0.out";
  check.readback_file = "/w/case-0.readback";
  job.checks.push_back(check);
  cugrade::TimeTask time;
  time.id = "perf/tiled";
  time.step = time.reference_step = "tiled";
  time.budget_s = 1.5;
  time.outputs["C"] = {cugrade::DType::f32, {4, 4}};
  job.timings.push_back(time);

  SUBCASE("round trip") {
    const auto back = cugrade::job_from_json(cugrade::job_to_json(job));
    REQUIRE(back.has_value());
    CHECK(back->events_file == job.events_file);
    REQUIRE(back->checks.size() == 1);
    CHECK(back->checks[0].id == check.id);
    CHECK(back->checks[0].params.at("M") == 1);
    CHECK(back->checks[0].outputs.at("C").dims == std::vector<std::int64_t>{1, 1});
    REQUIRE(back->timings.size() == 1);
    CHECK(back->timings[0].budget_s == 1.5);
    CHECK_FALSE(back->timings[0].reference_only);
    CHECK(back->timings[0].sign_free_inputs.empty());
    CHECK(back->timings[0].movable_bodies.empty());
  }
  SUBCASE("a timing's sign-free inputs travel to the runner") {
    job.timings[0].sign_free_inputs = {"A", "B"};
    const auto back = cugrade::job_from_json(cugrade::job_to_json(job));
    REQUIRE(back.has_value());
    CHECK(back->timings[0].sign_free_inputs == std::vector<std::string>{"A", "B"});
  }
  SUBCASE("a timing's movable bodies travel to the runner whole") {
    job.timings[0].movable_bodies = {"X", "Y", "VX", "VY", 0.011, 0.02, 25.0};
    const auto back = cugrade::job_from_json(cugrade::job_to_json(job));
    REQUIRE(back.has_value());
    const cugrade::MovableBodies& m = back->timings[0].movable_bodies;
    CHECK(m.x == "X");
    CHECK(m.y == "Y");
    CHECK(m.vx == "VX");
    CHECK(m.vy == "VY");
    CHECK(m.keep_apart == 0.011);
    CHECK(m.reach == 0.02);
    CHECK(m.speed == 25.0);
  }
  SUBCASE("a repeat with its own shared-memory poison keeps both; other tasks have neither") {
    cugrade::CheckTask again = check;
    again.id += "@00";
    again.shared_poison = "00";
    again.repeats = check.id;
    job.checks.push_back(again);
    const auto back = cugrade::job_from_json(cugrade::job_to_json(job));
    REQUIRE(back.has_value());
    REQUIRE(back->checks.size() == 2);
    CHECK(back->checks[0].shared_poison.empty());
    CHECK(back->checks[0].repeats.empty());
    CHECK(back->checks[1].shared_poison == "00");
    CHECK(back->checks[1].repeats == check.id);
  }
  SUBCASE("a reference-only timing (cugrade bench) keeps its mode") {
    job.timings[0].reference_only = true;
    job.timings[0].step.clear();
    const auto back = cugrade::job_from_json(cugrade::job_to_json(job));
    REQUIRE(back.has_value());
    CHECK(back->timings[0].reference_only);
    CHECK(back->timings[0].step.empty());
    CHECK(back->timings[0].reference_step == "tiled");
  }
  SUBCASE("malformed JSON is an error, not a crash") {
    std::string error;
    CHECK_FALSE(cugrade::job_from_json("{\"events_file\": 3}", &error).has_value());
    CHECK(error.starts_with("malformed job: "));
  }
}

TEST_CASE("runtime::events") {
  SUBCASE("a line round-trips") {
    cugrade::Event e;
    e.kind = "cuda_error";
    e.task = "t";
    e.call = "matmul_naive() → cudaDeviceSynchronize";
    e.error = "an illegal memory access was encountered";
    e.kernel = "k(float*)";
    const auto back = cugrade::event_from_line(cugrade::event_to_line(e));
    REQUIRE(back.has_value());
    CHECK(back->call == e.call);
    CHECK(back->kernel == e.kernel);
  }
  SUBCASE("a done event says whether the call's kernels used shared memory, when the runner knows") {
    cugrade::Event e;
    e.kind = "done";
    e.task = "t";
    e.shared_memory = "no";
    CHECK(cugrade::event_from_line(cugrade::event_to_line(e))->shared_memory == "no");
    e.shared_memory.clear();
    CHECK(cugrade::event_to_line(e).find("shared_memory") == std::string::npos);
    CHECK(cugrade::event_from_line(cugrade::event_to_line(e))->shared_memory.empty());
  }
  SUBCASE("a done event says how many threads the call's largest launch had, when the runner counted them") {
    cugrade::Event e;
    e.kind = "done";
    e.task = "t";
    e.threads = 1048832;
    CHECK(cugrade::event_from_line(cugrade::event_to_line(e))->threads == 1048832);
    e.threads = 0;
    CHECK(cugrade::event_to_line(e).find("threads") == std::string::npos);
    CHECK(cugrade::event_from_line(cugrade::event_to_line(e))->threads == 0);
  }
  SUBCASE("an event carries the allocation the GPU memory limit refused, when there was one") {
    cugrade::Event e;
    e.kind = "cuda_error";
    e.task = "t";
    e.memory_refused = "cudaMalloc asked for 8.0 GiB";
    CHECK(cugrade::event_from_line(cugrade::event_to_line(e))->memory_refused == e.memory_refused);
    e.memory_refused.clear();
    CHECK(cugrade::event_to_line(e).find("memory_refused") == std::string::npos);
  }
  SUBCASE("a done event carries why its result is not a kernel's work, when it is not") {
    cugrade::Event e;
    e.kind = "done";
    e.task = "t";
    e.launches = 2;
    e.host_work = "computed without a kernel: the call launched none";
    const auto back = cugrade::event_from_line(cugrade::event_to_line(e));
    CHECK(back->host_work == e.host_work);
    CHECK(back->launches == 2);
    e.host_work.clear();
    CHECK(cugrade::event_to_line(e).find("host_work") == std::string::npos);
  }
  SUBCASE("a cuda_error names the student's runtime call that made it, when one did") {
    cugrade::Event e;
    e.kind = "cuda_error";
    e.task = "t";
    CHECK(cugrade::event_to_line(e).find("failed_call") == std::string::npos);
    e.failed_call = "cudaMemcpy";
    CHECK(cugrade::event_from_line(cugrade::event_to_line(e))->failed_call == "cudaMemcpy");
  }
  SUBCASE("a cuda_error says whether the CUDA context survived it") {
    cugrade::Event e;
    e.kind = "cuda_error";
    e.task = "t";
    CHECK(cugrade::event_to_line(e).find("context_survived") == std::string::npos);
    CHECK_FALSE(cugrade::event_from_line(cugrade::event_to_line(e))->context_survived);
    e.context_survived = true;
    CHECK(cugrade::event_from_line(cugrade::event_to_line(e))->context_survived);
  }
  SUBCASE("junk a student prints into the stream is skipped") {
    const std::string path =
        (std::filesystem::temp_directory_path() / ("cugrade-events-" + std::to_string(getpid()))).string();
    std::ofstream(path) << "{\"kind\":\"start\",\"task\":\"a\"}\nPASSED\n{\"kind\":7}\n{\"kind\":\"done\",\"task\":\"a\",\"seconds\":0.5}\n";
    const auto events = cugrade::read_events(path);
    REQUIRE(events.size() == 2);
    CHECK(events[1].kind == "done");
    CHECK(events[1].seconds == 0.5);
    std::filesystem::remove(path);
  }
}
