#pragma once
// A scripted compute-sanitizer for the pipeline's tests of the "twice" assignment
// (twice_fixture.hpp): the sanitizer pass's (sanitizer_pass_test) and the run alone's (alone_rerun_test).
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "pipeline/twice_fixture.hpp"
#include "task_markers.hpp"

namespace cugrade::test {

/// A scripted `compute-sanitizer --tool T ... runner job`: runs the job as a correct runner
/// does, prints the banner and each task's markers, memcheck a write past the end of y in the
/// tasks named in `bad` and racecheck a race on shared memory in those named in `raced`.
inline FakeProcessRunner::Handler sanitized_runner(std::set<std::string> bad, std::vector<std::string>* tools,
                                            std::mutex* mutex, std::set<std::string> raced = {}) {
  return [bad, tools, mutex, raced](const ProcessRequest& request) {
    REQUIRE(request.argv.size() >= 4);
    const std::string tool = argument_after(request.argv, "--tool");
    {
      std::lock_guard lock(*mutex);
      tools->push_back(tool);
    }
    CHECK(request.environment.at(task_markers_variable) == "1");
    const Job job = read_job(request.argv.back());
    std::string out = "========= COMPUTE-SANITIZER\n";
    for (const auto& task : job.checks) {
      emit(job, event("start", task.id));
      if (request.should_kill) request.should_kill();  // the harness's poll: the case's inputs appear
      out += std::string(task_marker_prefix) + task.id + "\n" + buffer_marker("y", reinterpret_cast<void*>(0x10000), 20) + "\n";
      REQUIRE(write_array_file(task.output_file, doubled(task.inputs_file)));
      REQUIRE(write_array_file(task.readback_file, *read_array_file(task.inputs_file)));
      if (tool == "memcheck" && bad.contains(task.id)) {
        out +=
            "========= Invalid __global__ write of size 4 bytes\n"
            "=========     at twice_kernel(const float *, float *, int)+0x70 in src/submission_0.cu:3\n"
            "=========     by thread (5,0,0) in block (0,0,0)\n"
            "=========     Access to 0x10014 is out of bounds\n"
            "=========     and is 1 bytes after the nearest allocation at 0x10000 of size 20 bytes\n"
            "=========\n";
        Event failed = event("cuda_error", task.id);
        failed.call = "twice_simple() → cudaDeviceSynchronize";
        failed.error = "unspecified launch failure";
        emit(job, failed);
        ProcessResult result = fake_exit(0, out);
        return result;  // the aborted kernel ends this runner; the rest get a fresh one
      }
      if (tool == "racecheck" && raced.contains(task.id))
        out +=
            "========= Error: Race reported between Write access at twice_kernel(const float *, float *, int)+0x140 in "
            "src/submission_0.cu:3\n"
            "=========     and Read access at twice_kernel(const float *, float *, int)+0x120 in src/submission_0.cu:3 "
            "[64 hazards]\n"
            "=========\n";
      Event done = event("done", task.id);
      emit(job, done);
    }
    out += "========= ERROR SUMMARY: 0 errors\n";
    return fake_exit(0, out);
  };
}

}  // namespace cugrade::test
