// A timing side's replies read as numbers, and why a side stopped (harness/src/run/timing_side.cpp):
// a runner's reply counts only when it is the expected word and exactly the expected numbers,
// since the student's process writes it.
#include "run/timing_side.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace cugrade;
namespace fs = std::filesystem;

TEST_CASE("run::why_stopped") {
  const fs::path events = fs::temp_directory_path() / ("cugrade-why-stopped-" + std::to_string(::getpid()) + ".events");
  TimingSide side;
  side.label = "your runner";
  side.events_file = events;
  ProcessResult ended;
  ended.started = true;
  ended.exit_code = 3;
  side.ended = ended;  // already ended: nothing to stop
  Event error;
  error.kind = "cuda_error";
  error.task = "perf/naive";
  error.call = "matmul_naive() → cudaGetLastError";
  error.error = "out of memory";
  SUBCASE("a CUDA error while timed, with the GPU memory limit's refusal before it: both are said") {
    error.memory_refused = "cudaMalloc asked for 8.0 GiB of GPU memory while your code held 1.0 GiB; a runner may hold "
                           "at most 4.0 GiB (the assignment's limits.gpu_memory_mb)";
    std::ofstream(events) << event_to_line(error) << "\n";
    const TaskStatus status = why_stopped(side, false, 10.0);
    CHECK(status.outcome == Outcome::cuda_error);
    CHECK(status.message.rfind("CUDA error in matmul_naive() → cudaGetLastError: out of memory — cudaMalloc asked for 8.0 GiB", 0) == 0);
    CHECK(status.memory_refused == error.memory_refused);
  }
  SUBCASE("a runtime call that failed by itself while timed: its sentence first, then the refusal") {
    error.failed_call = "cudaMalloc";
    error.error = "cudaMalloc (hog.cu:5) failed with cudaErrorMemoryAllocation: out of memory";
    error.memory_refused = "cudaMalloc asked for 8.0 GiB";
    std::ofstream(events) << event_to_line(error) << "\n";
    const TaskStatus status = why_stopped(side, false, 10.0);
    CHECK(status.outcome == Outcome::cuda_error);
    CHECK(status.message.rfind("cudaMalloc (hog.cu:5) failed with cudaErrorMemoryAllocation: out of memory — cudaMalloc asked for 8.0 GiB", 0) == 0);
  }
  SUBCASE("a CUDA error with no refusal: the error alone") {
    std::ofstream(events) << event_to_line(error) << "\n";
    const TaskStatus status = why_stopped(side, false, 10.0);
    CHECK(status.message == "CUDA error in matmul_naive() → cudaGetLastError: out of memory");
    CHECK(status.memory_refused.empty());
  }
  fs::remove(events);
}

TEST_CASE("run::reply_numbers") {
  SUBCASE("the word and its numbers") {
    const auto ran = reply_numbers("ran 0.125", "ran", 1);
    REQUIRE(ran.has_value());
    CHECK(*ran == std::vector<double>{0.125});
    const auto digest = reply_numbers("digest 1 -2.5 3e2", "digest", 3);
    REQUIRE(digest.has_value());
    CHECK(*digest == std::vector<double>{1.0, -2.5, 300.0});
  }
  SUBCASE("anything else is no reply: another word, too few or too many numbers, a word among them") {
    CHECK_FALSE(reply_numbers("ready", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("ran", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("ran 1 2", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("ran 1x", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("ran nothing", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("ranx 1", "ran", 1).has_value());
  }
}
