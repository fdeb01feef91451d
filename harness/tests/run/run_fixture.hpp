#pragma once
// What the run_job tests share: a request for a job of four check tasks (two steps), task
// builders, and scripts for the scripted runner of fake_runner.hpp.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>

#include "run/fake_runner.hpp"
#include "run/run_job.hpp"

namespace cugrade::test {

namespace fs = std::filesystem;

inline CheckTask check_task(std::string id, std::string step) {
  CheckTask task;
  task.id = std::move(id);
  task.step = std::move(step);
  return task;
}

inline TimeTask time_task(std::string id, std::string step, double budget_s) {
  TimeTask task;
  task.id = std::move(id);
  task.step = std::move(step);
  task.reference_step = "ref";
  task.budget_s = budget_s;
  return task;
}

/// A fresh work folder and a request for a job of four check tasks, two per step.
struct RunFixture {
  fs::path dir;
  RunRequest request;

  RunFixture() {
    std::string pattern = (fs::temp_directory_path() / "cugrade-run-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
    request.runner = dir / "runner";
    request.work_dir = dir;
    request.job.checks = {check_task("a/1", "a"), check_task("a/2", "a"), check_task("b/1", "b"),
                          check_task("b/2", "b")};
    request.task_timeout_s = 10.0;
    request.output_limit_bytes = 4096;
    request.environment = {{"PATH", "/usr/bin"}, {"CUDA_MODULE_LOADING", "EAGER"}};
  }
  ~RunFixture() { fs::remove_all(dir); }
};

/// A script that finishes every task but, in `task`, ends the process with `result`.
inline TaskScript ends_in(std::string task, ProcessResult result) {
  return [task, result](const Job&, const std::string& id, const ProcessRequest&) -> std::optional<ProcessResult> {
    if (id == task) return result;
    return std::nullopt;
  };
}

inline const TaskScript all_done = [](const Job&, const std::string&, const ProcessRequest&) {
  return std::optional<ProcessResult>{};
};

}  // namespace cugrade::test
