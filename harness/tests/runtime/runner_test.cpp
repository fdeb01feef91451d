// The runner end to end: the fixture assignment (fixture/) linked with each of its submissions
// (runner_fixture.hpp), run on jobs written here. Without a GPU only the answers that need none
// are checked; the tests that need one exit 77 and show as Skipped. Profiled calls under Nsight
// Compute: profiled_calls_test.cpp.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <thread>

#include "fills.hpp"
#include "runner_fixture.hpp"
#include "start_gate.hpp"

using namespace cugrade;
using namespace cugrade::test;
namespace fs = std::filesystem;

TEST_CASE("runtime::main") {
  TempDir dir;
  SUBCASE("without a job file: a one-line usage error, exit 2") {
    CHECK(run_runner("good", dir.path, "") == 2);
    CHECK(read_text(dir.path / "stderr") == "cugrade runner: usage: runner [--serve] <job.json>\n");
    CHECK(read_text(dir.path / "stdout").empty());
  }
  SUBCASE("a malformed job: exit 2, and the reason on one line") {
    std::ofstream(dir.path / "job.json") << "{\"events_file\": 3}";
    CHECK(run_runner("good", dir.path, (dir.path / "job.json").string()) == 2);
    const std::string error = read_text(dir.path / "stderr");
    CHECK(error.starts_with("cugrade runner: malformed job: "));
    CHECK(std::count(error.begin(), error.end(), '\n') == 1);
  }
  SUBCASE("no usable GPU: one fatal event, exit 2, nothing written") {
    Job job;
    job.checks.push_back(check_task(dir.path, "c1", "scale", 10));
    const auto job_file = write_job(dir.path, job);
    // An empty CUDA_VISIBLE_DEVICES hides every GPU, so this runs the same with or without one.
    CHECK(run_runner("good", dir.path, job_file.string(), "CUDA_VISIBLE_DEVICES=") == 2);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 1);
    CHECK(events[0].kind == "fatal");
    CHECK(events[0].error.starts_with("no CUDA device: "));
    CHECK_FALSE(fs::exists(dir.path / "c1_out.bin"));
    CHECK(read_text(dir.path / "stdout").empty());
    CHECK(read_text(dir.path / "stderr").empty());
  }
}

TEST_CASE("runtime::run_check_task") {
  skip_without_gpu();
  TempDir dir;
  Job job;
  SUBCASE("a correct submission: outputs, inputs read back unchanged, start and done") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 1000));
    CHECK(run_runner("good", dir.path, write_job(dir.path, job).string()) == 0);
    CHECK(is_twice_ramp(read_one(job.checks[0].output_file, "y"), 1000));
    const Array x = read_one(job.checks[0].readback_file, "x");
    CHECK(std::memcmp(x.bytes.data(), ramp(1000).bytes.data(), x.bytes.size()) == 0);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 2);
    CHECK(events[0].kind == "start");
    CHECK(events[0].task == "c1");
    CHECK(events[1].kind == "done");
    CHECK(events[1].seconds > 0.0);
  }
  SUBCASE("a profiled call (no output or read-back file): start and done, and nothing written") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 1000));
    job.checks[0].output_file.clear();
    job.checks[0].readback_file.clear();
    CHECK(run_runner("good", dir.path, write_job(dir.path, job).string()) == 0);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 2);
    CHECK(events[1].kind == "done");
    CHECK(events[1].inputs.empty());  // nothing read back
    std::set<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir.path)) files.insert(entry.path().filename().string());
    // (stdout and stderr are run_runner's redirections)
    CHECK(files == std::set<std::string>{"c1_in.bin", "events.jsonl", "job.json", "stderr", "stdout"});
  }
  SUBCASE("at a start gate the runner waits for its file before the first case, and only for it") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 1000));
    const fs::path gate = dir.path / "start-gate";
    const auto began = std::chrono::steady_clock::now();
    std::thread opener([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      std::ofstream{gate};
    });
    const int code = run_runner("good", dir.path, write_job(dir.path, job).string(),
                                std::string(start_gate_variable) + "=" + gate.string());
    opener.join();
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    CHECK(code == 0);
    CHECK(waited >= 1.5);
    CHECK(waited < start_gate_most_s);
    CHECK(is_twice_ramp(read_one(job.checks[0].output_file, "y"), 1000));
  }
  SUBCASE("the reference runner: the reference's side of device and host-memory steps") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 1));
    job.checks.back().reference = true;
    job.checks.push_back(check_task(dir.path, "c2", "scale_host", 257));
    job.checks.back().reference = true;
    job.checks.push_back(check_task(dir.path, "c3", "scale_host", 257));
    job.checks.back().reference = true;
    CHECK(run_runner("reference", dir.path, write_job(dir.path, job).string()) == 0);
    CHECK(is_twice_ramp(read_one(job.checks[0].output_file, "y"), 1));
    CHECK(is_twice_ramp(read_one(job.checks[1].output_file, "y"), 257));
    CHECK(is_twice_ramp(read_one(job.checks[2].output_file, "y"), 257));
    CHECK(events_of(dir.path).size() == 6);
  }
  SUBCASE("the done event says when a result is not a kernel's work (host_work.hpp), and only then") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 100));
    job.checks.push_back(check_task(dir.path, "c2", "scale_host", 100));
    CHECK(run_runner("host_work", dir.path, write_job(dir.path, job).string()) == 0);
    auto events = events_of(dir.path);
    REQUIRE(events.size() == 4);
    CHECK(events[1].launches == 1);
    CHECK(events[1].host_work == "computed without a kernel: your output `y` holds exactly what host code copied "
                                 "into the device during the call (cudaMemcpy), unchanged by any kernel: its values "
                                 "must be computed by a kernel");
    CHECK(events[3].host_work.find("copied back from device memory holding exactly what host code had sent") !=
          std::string::npos);
    CHECK(is_twice_ramp(read_one(job.checks[0].output_file, "y"), 100));  // right all the same
    fs::remove(dir.path / "events.jsonl");
    CHECK(run_runner("good", dir.path, write_job(dir.path, job).string()) == 0);
    events = events_of(dir.path);
    REQUIRE(events.size() == 4);
    CHECK(events[1].host_work.empty());  // a kernel's work
    CHECK(events[3].host_work.starts_with("computed without a kernel: the call launched none"));  // a host loop
  }
  SUBCASE("outputs a submission never writes come back poisoned (the f32 fill: a signalling NaN)") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 100));
    job.checks.push_back(check_task(dir.path, "c2", "scale_host", 100));
    CHECK(run_runner("lazy", dir.path, write_job(dir.path, job).string()) == 0);
    for (const auto& task : job.checks) {
      const Array y = read_one(task.output_file, "y");
      REQUIRE(y.type == DType::f32);
      for (std::int64_t i = 0; i < y.size(); ++i) {
        std::uint32_t word;
        std::memcpy(&word, y.bytes.data() + 4 * i, 4);
        CHECK(word == output_fill_f32_word);  // fills.hpp: every byte 0xFF but the third, 0x8F
      }
      CHECK(std::isnan(y.data<float>()[0]));
    }
  }
  SUBCASE("a kernel that faults: cuda_error naming the entry point, the call and the kernel") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 1000));
    job.checks.push_back(check_task(dir.path, "c2", "scale", 1000));
    CHECK(run_runner("crash", dir.path, write_job(dir.path, job).string()) == 3);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 2);  // the runner stops: the harness restarts one for c2
    CHECK(events[1].kind == "cuda_error");
    CHECK(events[1].task == "c1");
    CHECK(events[1].call == "scale() → cudaDeviceSynchronize");
    // Which fault a wild address raises depends on where it lands (an H100 and an H200 differ).
    CHECK((events[1].error == "an illegal memory access was encountered" ||
           events[1].error == "operation not supported on global/shared address space"));
    CHECK(events[1].kernel == "crash_kernel(float const*, float*, int)");
    CHECK(events[1].failed_call.empty());
    CHECK_FALSE(fs::exists(job.checks[0].output_file));
  }
  SUBCASE("a launch the GPU refuses: cuda_error saying why, and the same runner goes on") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 1000));
    job.checks.push_back(check_task(dir.path, "c2", "scale", 1000));
    CHECK(run_runner("too_wide", dir.path, write_job(dir.path, job).string()) == 3);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 4);  // both cases, one runner
    for (int k : {1, 3}) {
      CHECK(events[k].kind == "cuda_error");
      CHECK(events[k].call == "scale() → cudaGetLastError");
      // CUDA 13's error for every shape it refuses, then the CPU backend's words for the rule.
      CHECK(events[k].error ==
            "invalid argument: kernel `too_wide_kernel` was launched with 2048 threads per block (2048x1x1); "
            "a block has at most 1024 threads");
      CHECK(events[k].context_survived);
      CHECK(events[k].failed_call.empty());  // a launch's refusal: no runtime call of the student's failed
    }
    CHECK(events[3].task == "c2");
  }
  SUBCASE("a runtime call that failed by itself is named with the student's line and why, no kernel blamed") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 1000));
    job.checks.push_back(check_task(dir.path, "c2", "scale_host", 1000));
    CHECK(run_runner("failed_calls", dir.path, write_job(dir.path, job).string()) == 3);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 4);  // both cases, one runner: the context survives both errors
    CHECK(events[1].kind == "cuda_error");
    CHECK(events[1].call == "scale() → cudaGetLastError");
    CHECK(events[1].error ==
          "cudaMemcpy (failed_calls.cu:16) failed with cudaErrorInvalidValue: the direction is "
          "cudaMemcpyHostToDevice, but the destination is not memory from cudaMalloc (are the pointers or the "
          "direction swapped?)");
    CHECK(events[1].kernel.empty());
    CHECK(events[1].failed_call == "cudaMemcpy");  // the report leads with the sentence (run/run_job.hpp)
    CHECK(events[3].kind == "cuda_error");
    CHECK(events[3].error ==
          "cudaFree (failed_calls.cu:30) failed with cudaErrorInvalidValue: the pointer was already released by "
          "cudaFree (freed twice)");
    CHECK(events[3].kernel.empty());
    CHECK(events[3].failed_call == "cudaFree");
  }
  SUBCASE("past the GPU memory limit: cudaMalloc fails as on a smaller GPU, the last error says so once") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 1000));
    CHECK(run_runner("hoard", dir.path, write_job(dir.path, job).string(), "CUGRADE_GPU_MEMORY_LIMIT_MB=64") == 0);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 2);
    CHECK(events[1].kind == "done");
    CHECK(events[1].memory_refused.find("cudaMalloc asked for 128.0 MiB") != std::string::npos);
    // The submission writes 2x only when the refusal and the last error came as on a GPU.
    CHECK(is_twice_ramp(read_one(job.checks[0].output_file, "y"), 1000));
  }
  SUBCASE("an unknown step is fatal and names the known ones") {
    job.checks.push_back(check_task(dir.path, "c1", "nope", 10));
    CHECK(run_runner("good", dir.path, write_job(dir.path, job).string()) == 2);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 2);
    CHECK(events[1].kind == "fatal");
    CHECK(events[1].error ==
          "unknown step 'nope' (this runner knows: scale, scale_host, scale_reference_only)");
  }
  SUBCASE("a reference-only step runs in the reference runner; its student side does not exist") {
    job.checks.push_back(check_task(dir.path, "c1", "scale_reference_only", 300));
    job.checks.back().reference = true;
    job.checks.push_back(check_task(dir.path, "c2", "scale_reference_only", 300));
    CHECK(run_runner("reference", dir.path, write_job(dir.path, job).string()) == 2);
    CHECK(is_twice_ramp(read_one(job.checks[0].output_file, "y"), 300));
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 4);
    CHECK(events[1].kind == "done");
    CHECK(events[3].kind == "fatal");
    CHECK(events[3].task == "c2");
    CHECK(events[3].error.starts_with("step 'scale_reference_only' has no student function in this runner"));
  }
  SUBCASE("the student's runner holds no reference: that case is refused, the next one still runs") {
    job.checks.push_back(check_task(dir.path, "c1", "scale", 300));
    job.checks.back().reference = true;
    job.checks.push_back(check_task(dir.path, "c2", "scale", 300));
    CHECK(run_runner("good", dir.path, write_job(dir.path, job).string()) == 2);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 4);
    CHECK(events[1].kind == "fatal");
    CHECK(events[1].task == "c1");
    CHECK(events[1].error.find("holds no reference") != std::string::npos);
    CHECK(events[3].kind == "done");
    CHECK(events[3].task == "c2");
    CHECK(is_twice_ramp(read_one(job.checks[1].output_file, "y"), 300));
  }
}

TEST_CASE("runtime::run_time_task") {
  skip_without_gpu();
  TempDir dir;
  const int n = 1 << 20;
  REQUIRE(write_array_file((dir.path / "in.bin").string(), {{"x", ramp(n)}}));
  REQUIRE(write_array_file((dir.path / "verify.bin").string(), {{"x", ramp(n, 1.0f)}}));
  TimeTask task;
  task.id = "t1";
  task.step = task.reference_step = "scale";
  task.params = {{"n", n}};
  task.inputs_file = (dir.path / "in.bin").string();
  task.verify_inputs_file = (dir.path / "verify.bin").string();
  task.outputs = {{"y", OutputDecl{DType::f32, {n}}}};
  task.student_output_file = (dir.path / "student.bin").string();
  task.reference_output_file = (dir.path / "reference.bin").string();
  task.min_samples = 10;
  task.max_samples = 30;
  task.budget_s = 0.5;
  task.warmup_s = 0.01;
  Job job;
  job.timings.push_back(task);
  const auto job_file = write_job(dir.path, job);

  SUBCASE("a student is never timed by a job task: graded timing is lock-step (--serve)") {
    CHECK(run_runner("good", dir.path, job_file.string()) == 2);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 2);
    CHECK(events[1].kind == "fatal");
    CHECK(events[1].error.find("lock-step") != std::string::npos);
  }
  SUBCASE("reference-only (cugrade bench): the reference runner times the reference alone") {
    Job bench;
    TimeTask alone = task;
    alone.step.clear();
    alone.reference_step = "scale_reference_only";
    alone.reference_only = true;
    alone.verify_inputs_file.clear();
    bench.timings.push_back(alone);
    CHECK(run_runner("reference", dir.path, write_job(dir.path, bench).string()) == 0);
    const auto events = events_of(dir.path);
    REQUIRE(events.size() == 3);
    REQUIRE(events[1].kind == "samples");
    CHECK(events[1].student_ms.empty());
    CHECK(events[1].student_wall_ms.empty());
    CHECK(events[1].reference_ms.size() >= 10);
    CHECK(events[1].reference_ms.size() <= 30);
    CHECK(events[1].reference_wall_ms.size() == events[1].reference_ms.size());
    for (double ms : events[1].reference_ms) CHECK(ms > 0.0);
    CHECK(events[2].kind == "done");
    CHECK_FALSE(fs::exists(task.student_output_file));    // no verification call without inputs
    CHECK_FALSE(fs::exists(task.reference_output_file));
  }
}
