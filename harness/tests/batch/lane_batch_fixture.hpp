#pragma once
// The GPU lanes' fixture of the batch tests: a class of "twice" submissions graded on GPU lanes
// through a thread-safe scripted machine that records which GPU each runner was given and
// whether two ran on one GPU at once.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "batch/batch_fixture.hpp"
#include "batch/grade_batch.hpp"
#include "pipeline/twice_fixture.hpp"

namespace cugrade::test {

/// A thread-safe scripted machine for batches with several workers: answers nvcc, nm and the
/// runner by what each command is, and records which GPU each runner was given.
class ConcurrentMachine : public ProcessRunner {
 public:
  ProcessResult run(const ProcessRequest& request) override {
    const auto& argv = request.argv;
    if (argv.back() == "--version") return fake_exit(0, "Cuda compilation tools, release 13.0, V13.0.88\n");
    if (argv.front() == "nm") return fake_exit(0, clean_symbols);
    if (is_build_tool(request) || has_argument(argv, "-o")) return fake_build_step(request);  // compile, seal, link
    const std::string gpu = request.environment.contains("CUDA_VISIBLE_DEVICES")
                                ? request.environment.at("CUDA_VISIBLE_DEVICES") : "none";
    // Whether another runner ran on this GPU while this one did (either started first).
    const auto beside = std::make_shared<std::atomic<bool>>(false);
    {
      std::lock_guard lock(mutex_);
      if (++running_[gpu] > 1) shared_gpu_ = true;
      most_at_once_ = std::max(most_at_once_, running_[gpu]);
      for (const auto& other : active_[gpu]) *other = *beside = true;
      active_[gpu].push_back(beside);
      gpus_.push_back(gpu);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    FakeStudent student;
    if (wrong_beside_others && *beside)
      student.tamper = [](const CheckTask&, ArraySet& outputs, ArraySet&) { outputs.at("y").data<float>()[0] += 1.0f; };
    const ProcessResult result = scripted_runner(student_runner(student))(request);
    std::lock_guard lock(mutex_);
    --running_[gpu];
    std::erase(active_[gpu], beside);
    return result;
  }
  /// A runner beside another on its GPU computes a wrong element (as one whose neighbour took the
  /// GPU's memory, or cleared the shared memory it poisoned, might).
  bool wrong_beside_others = false;
  /// The most runners on one GPU at once.
  int most_at_once() {
    std::lock_guard lock(mutex_);
    return most_at_once_;
  }
  std::vector<std::string> gpus() {
    std::lock_guard lock(mutex_);
    return gpus_;
  }
  bool shared_gpu() {
    std::lock_guard lock(mutex_);
    return shared_gpu_;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, int> running_;
  std::map<std::string, std::vector<std::shared_ptr<std::atomic<bool>>>> active_;  ///< per GPU: the runners on it
  int most_at_once_ = 0;
  std::vector<std::string> gpus_;
  bool shared_gpu_ = false;
};

/// A class of `students` (each handing in twice.cu) graded on GPU `lanes` through a ConcurrentMachine,
/// the GPUs' claims in a folder of the test's own.
struct LaneBatch {
  TempFolder root;
  ConcurrentMachine machine;
  CheckContext context{machine, fake_locations()};
  BatchOptions options;
  Spec spec;

  LaneBatch(const std::vector<std::string>& students, std::vector<std::string> lanes, std::size_t jobs) {
    for (const auto& s : students) write_text(root.path / "class" / s / "twice.cu", twice_source);
    fs::create_directories(locks());
    setenv("CUGRADE_LOCK_DIR", locks().c_str(), 1);
    auto probe = parse_probe_output(test_data("device/probe_h100.json"));
    REQUIRE(probe.has_value());
    context.device = *probe;
    options.submissions = root.path / "class";
    options.out = root.path / "out";
    options.check.backend = Backend::cuda;
    options.check.performance = false;
    options.jobs = jobs;
    options.gpu_lanes = std::move(lanes);
    auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/pipeline/twice/assignment.yaml");
    REQUIRE(loaded.has_value());
    spec = *loaded;
  }
  ~LaneBatch() { unsetenv("CUGRADE_LOCK_DIR"); }
  fs::path locks() const { return root.path / "locks"; }
  static Locations fake_locations() {
    Locations where;
    where.runner_dir = "/opt/cugrade/runners";
    where.nvcc = "/opt/cuda/bin/nvcc";
    return where;
  }
  /// Grades the class; `on_log` (when given) is told each of the batch's log lines.
  BatchSummary grade(const std::function<void(const std::string&)>& on_log = {}) {
    BatchCallbacks callbacks;
    callbacks.log = on_log;
    auto summary = grade_batch(context, spec, twice_grader, options, callbacks);
    REQUIRE_MESSAGE(summary.has_value(), summary.error().message);
    return *summary;
  }
};

}  // namespace cugrade::test
