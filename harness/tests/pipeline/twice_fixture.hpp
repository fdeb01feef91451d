#pragma once
// The pipeline's test assignment "twice" (y = 2·x; harness/tests/data/pipeline/twice/), its
// grader, and a strict scripted machine: the GPU probe, nvcc, nm, the runner and the calibrator,
// each expected in the order check_submission() runs them.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "pipeline/case_plan.hpp"
#include "pipeline/check_submission.hpp"
#include "spec/spec_loader.hpp"
#include "build/fake_build.hpp"
#include "run/fake_runner.hpp"
#include "run/fake_server.hpp"
#include <memory>
#include "spec/spec_loader.hpp"

namespace cugrade::test {

namespace fs = std::filesystem;

/// The text of harness/tests/data/<name>.
inline std::string test_data(const std::string& name) {
  std::ifstream in(std::string(CUGRADE_TEST_DATA) + "/" + name, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing test data " << name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The grader of "twice": x uniform in [-1, 1) (exact in FP32), gold 2·x in double.
inline const Grader twice_grader{
    "twice",
    [](const Case& c, Rng& rng) {
      const std::int64_t n = c.params.at("n");
      CaseData data;
      data.inputs["x"] = make_array(DType::f32, {n});
      float* x = data.inputs["x"].data<float>();
      for (std::int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(rng.next_u64() >> 40) * 0x1p-23f - 1.0f;
      data.outputs["y"] = make_array(DType::f32, {n});
      return data;
    },
    [](const Case& c, const ArraySet& inputs) {
      const std::int64_t n = c.params.at("n");
      Array y = make_array(DType::f64, {n});
      for (std::int64_t i = 0; i < n; ++i) y.data<double>()[i] = 2.0 * inputs.at("x").value(i);
      return ArraySet{{"y", std::move(y)}};
    },
    [](const std::string&, const Params& params) {
      return Work{.bytes = 8.0 * static_cast<double>(params.at("n")), .flops = 0.0, .items = 0.0, .rate_unit = "GB/s"};
    }};

/// y = 2·x of an input file, as a correct submission computes it.
inline ArraySet doubled(const std::string& inputs_file) {
  std::string error;
  auto inputs = read_array_file(inputs_file, &error);
  REQUIRE_MESSAGE(inputs.has_value(), "the fake runner cannot read " << inputs_file << ": " << error);
  const Array& x = inputs->at("x");
  Array y = make_array(DType::f32, x.dims);
  for (std::int64_t i = 0; i < x.size(); ++i) y.data<float>()[i] = 2.0f * x.data<float>()[i];
  return ArraySet{{"y", std::move(y)}};
}

/// What the fake student's code does in the runner. By default: right answers, inputs left
/// alone, and the timed step exactly as fast as the reference.
struct FakeStudent {
  /// Changes a check task's outputs or the inputs as read back after the call.
  std::function<void(const CheckTask&, ArraySet& outputs, ArraySet& readback)> tamper;
  /// How the runner process ends inside a task (by task id); the task writes nothing.
  std::map<std::string, ProcessResult> ends;
  /// Events the runner writes in a task before it ends there (a cuda_error).
  std::map<std::string, Event> events;
  std::vector<double> student_ms{0.99, 1.0, 1.01};
  std::vector<double> reference_ms{0.99, 1.0, 1.01};
  /// The reference's times before the student's runner starts; empty: as reference_ms.
  std::vector<double> reference_alone_ms;
  bool timed_output_wrong = false;  ///< the student's final timed call computes something else
  std::set<std::string> garbage;    ///< check tasks whose output file holds garbage
};

/// The runner's side of every task, as `student` behaves.
inline TaskScript student_runner(FakeStudent student) {
  return [student](const Job& job, const std::string& id, const ProcessRequest&) -> std::optional<ProcessResult> {
    if (auto e = student.events.find(id); e != student.events.end()) emit(job, e->second);
    if (auto end = student.ends.find(id); end != student.ends.end()) return end->second;
    for (const auto& task : job.checks) {
      if (task.id != id) continue;
      ArraySet outputs = doubled(task.inputs_file);
      ArraySet readback = *read_array_file(task.inputs_file);
      if (student.tamper) student.tamper(task, outputs, readback);
      REQUIRE(write_array_file(task.output_file, outputs));
      if (student.garbage.contains(id)) std::ofstream(task.output_file, std::ios::trunc) << "not an array file";
      REQUIRE(write_array_file(task.readback_file, readback));
    }
    return std::nullopt;
  };
}

/// The value after `flag` in argv ("-o" → the output file); empty when absent.
inline std::string argument_after(const std::vector<std::string>& argv, const std::string& flag) {
  auto it = std::find(argv.begin(), argv.end(), flag);
  return it == argv.end() || it + 1 == argv.end() ? std::string() : *(it + 1);
}

inline bool has_argument(const std::vector<std::string>& argv, const std::string& arg) {
  return std::find(argv.begin(), argv.end(), arg) != argv.end();
}

const char* const twice_source =
    "#include \"interface.cuh\"\n"
    "__global__ void twice_kernel(const float* x, float* y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n"
    "void twice_simple(const float* x, float* y, int n) { twice_kernel<<<(n + 255) / 256, 256>>>(x, y, n); }\n"
    "void twice_fast(const float* x, float* y, int n) { twice_simple(x, y, n); }\n";

const char* const clean_symbols =
    "0000000000000000 T twice_kernel(float const*, float*, int)\n"
    "0000000000000080 T twice_simple(float const*, float*, int)\n"
    "0000000000000100 T twice_fast(float const*, float*, int)\n";

/// A submission twice.cu, the spec of "twice", a CUDA check of it and a strict scripted machine.
struct PipelineFixture {
  fs::path root;
  Spec spec;
  Locations where;
  CheckOptions options;
  FakeProcessRunner processes;
  std::vector<Job> jobs;  ///< each job a runner process was given
  std::optional<std::string> saved_cache_home;

  PipelineFixture() {
    std::string pattern = (fs::temp_directory_path() / "cugrade-pipeline-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    root = pattern;
    fs::create_directories(root / "submission");
    std::ofstream(source()) << twice_source;
    auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/pipeline/twice/assignment.yaml");
    REQUIRE_MESSAGE(loaded.has_value(), (loaded ? "" : loaded.error().message));
    spec = *loaded;
    where.root = root;
    where.runner_dir = "/opt/cugrade/runners";
    where.cpu_runner_dir = "/opt/cugrade/cpu-runners";
    where.nvcc = "/opt/cuda/bin/nvcc";
    options.submission = {source()};
    options.backend = Backend::cuda;
    options.performance = false;
    options.diagnosis = false;  // on where a test asks for it (and scripts ncu): never the machine's own ncu
    options.work_dir = root / "work";
    // The calibration cache goes to a private folder: never the user's own.
    if (const char* home = std::getenv("XDG_CACHE_HOME")) saved_cache_home = home;
    setenv("XDG_CACHE_HOME", (root / "cache").c_str(), 1);
    // The GPU's claim (device/gpu_claim.hpp) in a private folder: never another test's or a real check's.
    fs::create_directories(locks());
    setenv("CUGRADE_LOCK_DIR", locks().c_str(), 1);
  }
  ~PipelineFixture() {
    if (saved_cache_home) setenv("XDG_CACHE_HOME", saved_cache_home->c_str(), 1);
    else unsetenv("XDG_CACHE_HOME");
    unsetenv("CUGRADE_LOCK_DIR");
    fs::remove_all(root);
  }

  fs::path source() const { return root / "submission" / "twice.cu"; }
  fs::path work() const { return root / "work"; }
  fs::path locks() const { return root / "locks"; }
  std::string nvcc() const { return where.nvcc.string(); }

  /// The GPU probe, answering with `probe_json`.
  void expect_probe(std::string probe_json) {
    processes.expect([this, probe_json](const ProcessRequest& sent) {
      CHECK(sent.argv == std::vector<std::string>{(where.runner_dir / "cugrade-probe").string()});
      return fake_exit(0, probe_json);
    });
  }
  /// `nvcc --version` of CUDA 13.0.
  void expect_nvcc_version() {
    processes.expect([this](const ProcessRequest& sent) {
      CHECK(sent.argv == std::vector<std::string>{nvcc(), "--version"});
      return fake_exit(0,
                       "nvcc: NVIDIA (R) Cuda compiler driver\n"
                       "Copyright (c) 2005-2025 NVIDIA Corporation\n"
                       "Cuda compilation tools, release 13.0, V13.0.88\n"
                       "Build cuda_13.0.r13.0/compiler.36424714_0\n");
    });
  }
  /// The probe of an H100 and nvcc's version.
  void expect_gpu() {
    expect_probe(test_data("device/probe_h100.json"));
    expect_nvcc_version();
  }
  /// `nvcc -c src/submission_0.cu -o obj/submission_0.o` (twice.cu, staged) for `arch`;
  /// `result` empty = success, writing the object and its dependency lists (build/fake_build.hpp).
  /// A compile that fails is made twice: with the call-site header, then without (build/call_site_header.hpp).
  void expect_compile(std::string arch = "sm_90", std::optional<ProcessResult> result = std::nullopt) {
    const bool failing = result && result->started && !result->timed_out && result->exit_code != 0;
    for (int attempt = 0; attempt < (failing ? 2 : 1); ++attempt)
      processes.expect([this, arch, result](const ProcessRequest& sent) {
        CHECK(sent.argv.front() == nvcc());
        CHECK(has_argument(sent.argv, "-c"));
        CHECK(has_argument(sent.argv, "-arch=" + arch));
        CHECK(has_argument(sent.argv, staged_source));
        CHECK(argument_after(sent.argv, "-o") == staged_object);
        if (result) return *result;
        return fake_build_step(sent);
      });
  }
  /// nm of the object, listing `symbols`.
  void expect_nm(std::string symbols = clean_symbols) {
    processes.expect([symbols](const ProcessRequest& sent) {
      CHECK(sent.argv.front() == "nm");
      CHECK(sent.argv.back() == staged_object);
      return fake_exit(0, symbols);
    });
  }
  /// objcopy sealing the object (every name but the entry points made private).
  void expect_seal() {
    processes.expect([](const ProcessRequest& sent) {
      CHECK(sent.argv.front() == "objcopy");
      return fake_build_step(sent);
    });
  }
  /// The nvcc link of the runner; `result` empty = success, writing the runner.
  void expect_link(std::optional<ProcessResult> result = std::nullopt) {
    processes.expect([this, result](const ProcessRequest& sent) {
      CHECK(sent.argv.front() == nvcc());
      CHECK_FALSE(has_argument(sent.argv, "-c"));
      CHECK(fs::path(sent.working_dir) / argument_after(sent.argv, "-o") == work() / "runner");
      CHECK(has_argument(sent.argv, where.cuda_runner_library("twice").string()));
      if (result) return *result;
      return fake_build_step(sent);
    });
  }
  /// A successful build: compile, nm, seal, link.
  void expect_build(std::string arch = "sm_90") {
    expect_compile(arch);
    expect_nm();
    expect_seal();
    expect_link();
  }
  /// nvcc, which cannot be started (a fault of the set-up, not the student's).
  void expect_missing_nvcc() {
    ProcessResult missing = fake_exit(-1);
    missing.started = false;
    expect_compile("sm_90", missing);
  }
  /// The runner, which cannot be started (a fault of the harness's, not the student's).
  void expect_unstartable_runner() {
    processes.expect([](const ProcessRequest&) {
      ProcessResult result;
      result.launch_error = "exec format error";
      return result;
    });
  }
  /// One runner process, behaving as `student`.
  void expect_runner(FakeStudent student = {}) {
    // The tests name cases by their ids; the runner sees them by neutral task ids ("case-3").
    student.ends = by_task_id(student.ends);
    student.events = by_task_id(student.events);
    for (auto& [id, e] : student.events) e.task = id;
    std::set<std::string> garbage;
    for (const auto& id : student.garbage) garbage.insert(task_id_of(id));
    student.garbage = garbage;
    auto script = scripted_runner(student_runner(std::move(student)), &jobs);
    processes.expect([this, script](const ProcessRequest& sent) {
      CHECK(sent.argv.front() == (work() / "runner").string());
      CHECK(sent.environment.at("CUDA_MODULE_LOADING") == "EAGER");
      return script(sent);
    });
  }
  /// The reference runner, running the reference-only steps' cases (correct answers).
  void expect_reference_runner() {
    auto script = scripted_runner(student_runner(FakeStudent{}), &jobs);
    processes.expect([this, script](const ProcessRequest& sent) {
      CHECK(sent.argv.front() == where.reference_runner("twice", true).string());
      return script(sent);
    });
  }
  /// The neutral id the runner's job gives the case `case_id` (its place among the graded cases).
  std::string task_id_of(const std::string& case_id) const {
    const auto cases = graded_cases(spec, expand_cases(spec, options.course_secret), options.reference_only_steps);
    for (std::size_t i = 0; i < cases.size(); ++i)
      if (cases[i].id == case_id) return "case-" + std::to_string(i);
    return case_id;  // not a case: a timing task ("perf/fast") keeps its id
  }
  template <class T>
  std::map<std::string, T> by_task_id(const std::map<std::string, T>& by_case) const {
    std::map<std::string, T> out;
    for (const auto& [id, value] : by_case) out[task_id_of(id)] = value;
    return out;
  }
  /// Which timing runners a check starts (expect_timing).
  enum class Timed {
    lone,       ///< a lone check's: the reference and its twin (the baselines, while the file builds), then both sides
    baselines,  ///< the reference and its twin alone (take_baselines_now)
    sides,      ///< the reference's runner and the student's, started by the timing (the baseline kept)
    fresh,      ///< none kept: the reference beside its twin, then the student's (the same reference goes on)
  };
  /// Lock-step timing of one target, each runner serving its side with `student`'s times; a
  /// student with timed_output_wrong gives itself away by digest.
  void expect_timing(FakeStudent student = {}, Timed timed = Timed::lone) {
    enum Role { baseline, twin, yours, reference };
    const std::vector<Role> roles = timed == Timed::lone        ? std::vector<Role>{baseline, twin, yours, reference}
                                    : timed == Timed::baselines ? std::vector<Role>{baseline, twin}
                                    : timed == Timed::sides     ? std::vector<Role>{reference, yours}
                                                                : std::vector<Role>{baseline, twin, yours};
    for (const Role role : roles) {
      processes.expect_interactive([this, student, role](const ProcessRequest& sent) {
        const bool theirs = role != yours;
        CHECK(sent.argv.front() == (theirs ? where.reference_runner("twice", true) : work() / "runner").string());
        // Each timing runner works in a folder of its own, none of them the cases' runner's.
        CHECK(sent.working_dir == work() / (theirs ? role == twin ? "reference-timing-twin" : "reference-timing" : "timing"));
        const Job job = serve_job_of(sent);
        REQUIRE(job.timings.size() == 1);
        CHECK(job.timings[0].reference_only == theirs);
        const bool wrong = !theirs && student.timed_output_wrong;
        auto calls = std::make_shared<std::size_t>(0);
        return std::make_unique<FakeServer>([job, student, role, wrong, calls](const std::string& command) -> std::string {
          const std::vector<double>& times = role == yours ? student.student_ms
                                             : role != reference && !student.reference_alone_ms.empty()
                                                 ? student.reference_alone_ms
                                                 : student.reference_ms;
          if (command == "task 0") return "loaded";
          if (command.starts_with("prepare ")) return "ready";
          if (command == "run") return "ran " + std::to_string(times[(*calls)++ % times.size()]);
          if (command.starts_with("digest ")) return digest_reply(wrong ? 1.0 : 0.0);
          if (command.starts_with("write ")) {
            ArraySet y = doubled(job.timings[0].inputs_file);
            if (wrong) y["y"].data<float>()[0] += 1.0f;
            REQUIRE(write_array_file(command.substr(6), y));
            return "written";
          }
          return "what?";
        });
      });
    }
  }
  /// cugrade-calibrate, measuring the H100's ceilings.
  void expect_calibrate() {
    processes.expect([this](const ProcessRequest& sent) {
      CHECK(sent.argv == std::vector<std::string>{(where.runner_dir / "cugrade-calibrate").string()});
      return fake_exit(0, test_data("device/calibrate_h100.json"));
    });
  }

  /// Runs the check; every scripted command must have been used.
  GradeReport check() {
    GradeReport report = check_submission(CheckContext{processes, where}, spec, twice_grader, options);
    CHECK_MESSAGE(processes.pending() == 0, "scripted commands left unused");
    return report;
  }
};

/// The case of `report` with this id; fails the test when there is none.
inline const CaseResult& case_of(const GradeReport& report, const std::string& id) {
  const auto it = std::find_if(report.cases.begin(), report.cases.end(),
                               [&id](const CaseResult& c) { return c.id == id; });
  REQUIRE_MESSAGE(it != report.cases.end(), "no case " << id);
  return *it;
}

}  // namespace cugrade::test
