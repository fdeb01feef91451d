#pragma once
// What the runner's end-to-end tests share: the fixture runners (fixture/: a test assignment
// linked with a correct, a lazy, a crashing, a hoarding, a too-wide and a relaunching submission),
// jobs written into a test's own folder, and the skip without a GPU.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "array_file.hpp"
#include "gpu_skip.hpp"
#include "job.hpp"

#include "temp_dir.hpp"

namespace cugrade::test {
namespace fs = std::filesystem;


inline std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Runs a fixture runner ("good", "lazy", "crash", "hoard", "too_wide", "relaunch", "host_work", "failed_calls", or "reference": the fixture's reference
/// runner) with `args`; stdout and stderr go to files in `dir`. Returns the exit code.
inline int run_runner(const std::string& student, const fs::path& dir, const std::string& args,
               const std::string& environment = "") {
  const std::string binary = student == "reference" ? std::string("/reference-runner") : "/runtime_fixture_" + student;
  const std::string command = environment + " " + CUGRADE_FIXTURE_RUNNERS + binary + " " + args + " >" +
                              (dir / "stdout").string() + " 2>" + (dir / "stderr").string();
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// x[i] = i/2 - 100: exact in float, so 2x is exact too.
inline Array ramp(int n, float offset = 0.0f) {
  Array x = make_array(DType::f32, {n});
  for (int i = 0; i < n; ++i) x.data<float>()[i] = 0.5f * i - 100.0f + offset;
  return x;
}

/// A check task of `step` on n elements, files in `dir`.
inline CheckTask check_task(const fs::path& dir, const std::string& id, const std::string& step, int n) {
  ArraySet inputs{{"x", ramp(n)}};
  REQUIRE(write_array_file((dir / (id + "_in.bin")).string(), inputs));
  CheckTask task;
  task.id = id;
  task.step = step;
  task.params = {{"n", n}};
  task.inputs_file = (dir / (id + "_in.bin")).string();
  task.outputs = {{"y", OutputDecl{DType::f32, {n}}}};
  task.output_file = (dir / (id + "_out.bin")).string();
  task.readback_file = (dir / (id + "_readback.bin")).string();
  return task;
}

inline fs::path write_job(const fs::path& dir, Job job) {
  job.events_file = (dir / "events.jsonl").string();
  std::ofstream(dir / "job.json") << job_to_json(job);
  return dir / "job.json";
}

inline std::vector<Event> events_of(const fs::path& dir) {
  return read_events((dir / "events.jsonl").string());
}

/// True when `y` holds 2x for x = ramp(n, offset).
inline bool is_twice_ramp(const Array& y, int n, float offset = 0.0f) {
  if (y.size() != n) return false;
  const Array x = ramp(n, offset);
  for (int i = 0; i < n; ++i)
    if (y.data<float>()[i] != 2.0f * x.data<float>()[i]) return false;
  return true;
}

inline Array read_one(const std::string& path, const std::string& name) {
  auto arrays = read_array_file(path);
  REQUIRE(arrays.has_value());
  REQUIRE(arrays->count(name) == 1);
  return arrays->at(name);
}

}  // namespace cugrade::test
