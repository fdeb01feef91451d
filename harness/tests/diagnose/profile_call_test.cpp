// profile_call (harness/src/diagnose/profile_call.cpp) with a scripted ncu: the job it writes,
// the command and sandbox it runs, and how it reads ncu's log or says why there is none.
#include "diagnose/profile_call.hpp"

#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "capture.hpp"
#include "process/fake_process_runner.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
struct Folder {
  fs::path path = fs::temp_directory_path() / ("cugrade-profile-test-" + std::to_string(::getpid()));
  Folder() { fs::create_directories(path); }
  ~Folder() { fs::remove_all(path); }
};

ProfileRequest request_in(const fs::path& dir) {
  ProfileRequest p;
  p.ncu = "/cuda/bin/ncu";
  p.run.runner = dir / "runner";
  p.run.work_dir = dir / "profile";
  p.run.environment = {{"PATH", "/usr/bin"}};
  p.task.id = "profile";
  p.task.step = "naive";
  p.timeout_s = 30.0;
  return p;
}

/// The value after `option` in `argv`.
std::string after(const std::vector<std::string>& argv, const std::string& option) {
  const auto it = std::find(argv.begin(), argv.end(), option);
  return it == argv.end() || it + 1 == argv.end() ? "" : *(it + 1);
}
}  // namespace

TEST_CASE("diagnose::profile_call") {
  Folder folder;
  FakeProcessRunner processes;
  ProfileRequest request = request_in(folder.path);

  SUBCASE("runs the runner's job under ncu and reads the counters from its log") {
    processes.expect([](const ProcessRequest& r) {
      // What ncu would write: the real capture's table.
      std::ofstream(after(r.argv, "--log-file")) << cugrade::test::capture_text("h100_transpose_smem.csv");
      return fake_exit(0, "the student's own output\n");
    });
    auto counters = profile_call(processes, request);
    REQUIRE(counters.has_value());
    CHECK(counters->main_kernel == "transpose_smem");
    CHECK(counters->shared_load_ways() == doctest::Approx(32.2).epsilon(0.01));
    REQUIRE(processes.requests().size() == 1);
    const ProcessRequest& ran = processes.requests()[0];
    CHECK(ran.argv.front() == "/cuda/bin/ncu");
    CHECK(ran.argv[ran.argv.size() - 2] == request.run.runner.string());
    CHECK(ran.argv.back() == (request.run.work_dir / "job.json").string());
    CHECK(ran.timeout_s == 30.0);
    CHECK_FALSE(ran.sandbox.has_value());  // not sealed: then HOME is the profile's folder
    CHECK(ran.environment.at("HOME") == request.run.work_dir.string());
    // The job: the one check task, its outputs in the profile's folder.
    std::ifstream job_file(request.run.work_dir / "job.json");
    std::stringstream text;
    text << job_file.rdbuf();
    const auto job = job_from_json(text.str());
    REQUIRE(job.has_value());
    REQUIRE(job->checks.size() == 1);
    CHECK(job->checks[0].step == "naive");
    CHECK(job->timings.empty());
  }
  SUBCASE("the runner is told the cap; a call that launched more than it is scaled to all its launches") {
    processes.expect([](const ProcessRequest& r) {
      std::ofstream(after(r.argv, "--log-file")) << cugrade::test::capture_text("h100_transpose_smem.csv");
      return fake_exit(0);
    });
    auto alone = profile_call(processes, request);
    REQUIRE(alone.has_value());
    processes.expect([&](const ProcessRequest& r) {
      CHECK(r.environment.at("CUGRADE_PROFILED_KERNELS") == std::to_string(request.max_kernels));
      std::ofstream(after(r.argv, "--log-file")) << cugrade::test::capture_text("h100_transpose_smem.csv");
      // The runner's done event: the call launched 19 kernels, one of them profiled.
      std::ofstream(request.run.work_dir / "events.jsonl")
          << "{\"kind\":\"start\",\"task\":\"profile\"}\n{\"kind\":\"done\",\"task\":\"profile\",\"seconds\":0.1,\"launches\":19}\n";
      return fake_exit(0);
    });
    auto scaled = profile_call(processes, request);
    REQUIRE(scaled.has_value());
    CHECK(scaled->kernels == 1);
    CHECK(scaled->instructions == doctest::Approx(19.0 * alone->instructions));
    CHECK(scaled->shared_load_ways() == doctest::Approx(alone->shared_load_ways()));
  }
  SUBCASE("a kernel ncu gave no time for: no counters, and why (none are kept for other checks)") {
    processes.expect([](const ProcessRequest& r) {
      std::string table = cugrade::test::capture_text("h100_transpose_smem.csv");
      const std::string timed = "\"gpu__time_duration.sum\",\"ns\",\"35,232\"";
      REQUIRE(table.find(timed) != std::string::npos);
      table.replace(table.find(timed), timed.size(), "\"gpu__time_duration.sum\",\"ns\",\"nan\"");
      std::ofstream(after(r.argv, "--log-file")) << table;
      return fake_exit(0);
    });
    const auto counters = profile_call(processes, request);
    REQUIRE_FALSE(counters.has_value());
    CHECK(counters.error().message ==
          "ncu gave no time for the kernel transpose_smem (its counters cannot be weighed)");
  }
  SUBCASE("sealed: the runner's own sandbox, the profile's folder writable") {
    request.run.sandboxed = true;
    request.run.gpu = true;
    processes.expect([](const ProcessRequest&) { return fake_exit(0); });
    (void)profile_call(processes, request);
    REQUIRE(processes.requests().size() == 1);
    const auto& sandbox = processes.requests()[0].sandbox;
    REQUIRE(sandbox.has_value());
    CHECK(sandbox->gpu);
    REQUIRE_FALSE(sandbox->mounts.empty());
    CHECK(sandbox->mounts[0].source == request.run.work_dir);
    CHECK(sandbox->mounts[0].writable);
  }
  SUBCASE("ncu's permission error, in words") {
    processes.expect([](const ProcessRequest&) {
      return fake_exit(1, "", "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission\n");
    });
    auto counters = profile_call(processes, request);
    REQUIRE_FALSE(counters.has_value());
    CHECK(counters.error().message.find("ERR_NVGPUCTRPERM") != std::string::npos);
  }
  SUBCASE("a profile past its time") {
    processes.expect([](const ProcessRequest&) {
      ProcessResult r = fake_exit(-1);
      r.timed_out = true;
      return r;
    });
    auto counters = profile_call(processes, request);
    REQUIRE_FALSE(counters.has_value());
    CHECK(counters.error().message == "ncu took longer than 30 s");
  }
  SUBCASE("no ncu at all") {
    request.ncu.clear();
    auto counters = profile_call(processes, request);
    REQUIRE_FALSE(counters.has_value());
    CHECK(counters.error().message.rfind("Nsight Compute (ncu) is not installed here", 0) == 0);
    CHECK(processes.requests().empty());
  }
}

TEST_CASE("diagnose::kernels_by_call") {
  const auto kernel = [](const std::string& id, const std::string& name) {
    return KernelProfile{id, "void " + name + "(const float *, float *, int)", {}};
  };
  const auto names = [](const std::vector<KernelProfile>& call) {
    std::vector<std::string> out;
    for (const auto& k : call) out.push_back(k.id);
    return out;
  };
  const std::vector<KernelProfile> run{kernel("0", "cugrade_call_marker"), kernel("1", "reduce"), kernel("2", "reduce"),
                                       kernel("3", "cugrade_call_marker"), kernel("4", "scan")};
  SUBCASE("each call's kernels follow its marker; the markers are left out") {
    const auto calls = kernels_by_call(run, 2, 32);
    REQUIRE(calls.size() == 2);
    CHECK(names(calls[0]) == std::vector<std::string>{"1", "2"});
    CHECK(names(calls[1]) == std::vector<std::string>{"4"});
  }
  SUBCASE("each call cut to its first max_kernels") {
    CHECK(names(kernels_by_call(run, 2, 1)[0]) == std::vector<std::string>{"1"});
  }
  SUBCASE("a call the run never reached is empty, not another's kernels") {
    const auto calls = kernels_by_call(run, 3, 32);
    CHECK(calls[2].empty());
    CHECK(names(calls[1]) == std::vector<std::string>{"4"});
  }
  SUBCASE("a call that launched nothing is empty") {
    const std::vector<KernelProfile> idle{kernel("0", "cugrade_call_marker"), kernel("1", "cugrade_call_marker"),
                                          kernel("2", "scan")};
    const auto calls = kernels_by_call(idle, 2, 32);
    CHECK(calls[0].empty());
    CHECK(names(calls[1]) == std::vector<std::string>{"2"});
  }
  SUBCASE("without markers: the one call's kernels, or none of several calls") {
    const std::vector<KernelProfile> plain{kernel("0", "reduce"), kernel("1", "scan")};
    CHECK(names(kernels_by_call(plain, 1, 32)[0]) == std::vector<std::string>{"0", "1"});
    const auto calls = kernels_by_call(plain, 2, 32);
    CHECK(calls[0].empty());
    CHECK(calls[1].empty());
  }
}
