// Races and uninitialised shared memory by running the cases again: which tasks run again, under
// which schedule and poison, and what the student reads when the runs disagree.
#include "pipeline/schedule_race.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>

#include "launch_tracking.hpp"
#include "pipeline/twice_fixture.hpp"
#include "pipeline/verdicts.hpp"
#include "spec/spec_loader.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {

/// What the fake student's runner writes: y = 2·x, changed by `twist` as the run's schedule and
/// poison say; `log`, when set, is what the executor would write to the shared-memory log.
struct RacyStudent {
  std::function<void(const std::string& schedule, const std::string& poison, Array& y)> twist;
  std::string log;
  std::string shared_memory = "yes";  ///< what a GPU runner asked to note it says of the kernels
};

/// The spec of "twice" with FP32 tolerances (as a sum of floats would have), its plan, and
/// run 1 (forward, 0xFF) through the fake runner, judged; on the GPU (`gpu`), with run 2 (0x00)
/// riding in run 1's runner as the pipeline runs it.
struct RaceFixture {
  fs::path root;
  Spec spec;
  CasePlan plan;
  RunRequest first;
  RunOutcome ran, second;
  std::vector<CaseResult> cases;
  FakeProcessRunner processes;
  std::vector<ProcessRequest> requests;  ///< every runner process, run 1 included
  std::vector<Job> jobs;
  std::mutex mutex;

  explicit RaceFixture(RacyStudent student, bool gpu = false) {
    std::string pattern = (fs::temp_directory_path() / "cugrade-race-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    root = pattern;
    auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/pipeline/twice/assignment.yaml");
    REQUIRE(loaded.has_value());
    spec = *loaded;
    for (Step& step : spec.steps) step.tolerance = Tolerance{1e-6, 1e-5, "a float sum"};
    plan = plan_cases(spec, twice_grader, expand_cases(spec, std::nullopt), {}, root);
    first.runner = root / "runner";
    first.work_dir = root;
    first.job = plan.job;
    first.environment = {{"PATH", "/usr/bin"}, {schedule_variable, "forward"}, {poison_variable, "ff"}};
    for (int i = 0; i < 4; ++i) expect(student);  // run 1 and up to three more
    RunRequest run = first;
    if (gpu)
      for (CheckTask& repeat : zero_poison_repeats(first.job, root / "poison-00")) run.job.checks.push_back(repeat);
    ran = run_job(processes, run);
    second = take_repeats(ran);
    for (std::size_t i = 0; i < plan.cases.size(); ++i)
      cases.push_back(judge_case(spec, plan.cases[i], plan.job.checks[i], ran.tasks.at(plan.job.checks[i].id)));
  }
  ~RaceFixture() { fs::remove_all(root); }

  void expect(const RacyStudent& student) {
    auto script = scripted_runner(
        [this, student](const Job& job, const std::string& id, const ProcessRequest& request) -> std::optional<ProcessResult> {
          const std::string schedule = request.environment.at(schedule_variable);
          for (const auto& t : job.checks) {
            if (t.id != id) continue;
            const std::string poison = t.shared_poison.empty() ? request.environment.at(poison_variable) : t.shared_poison;
            ArraySet outputs = doubled(t.inputs_file);
            if (student.twist) student.twist(schedule, poison, outputs.at("y"));
            REQUIRE(write_array_file(t.output_file, outputs));
            REQUIRE(write_array_file(t.readback_file, *read_array_file(t.inputs_file)));
          }
          if (auto log = request.environment.find(shared_log_variable); log != request.environment.end())
            std::ofstream(log->second) << student.log;
          return std::nullopt;
        },
        &jobs, [student](const ProcessRequest& request, Event& done) {
          const auto asked = request.environment.find(runner::note_shared_memory_variable);
          if (asked != request.environment.end() && asked->second == "1") done.shared_memory = student.shared_memory;
        });
    processes.expect([this, script](const ProcessRequest& request) {
      std::lock_guard lock(mutex);  // the GPU's two reruns run side by side
      requests.push_back(request);
      return script(request);
    });
  }

  std::size_t check() { return check_schedule_races(processes, spec, plan, first, ran, cases); }
  std::size_t check_on_gpu() {
    return check_uninitialised_shared_on_gpu(processes, spec, plan, first, ran, second, cases);
  }
  const CaseResult& result(const std::string& id) const {
    return *std::ranges::find(cases, id, &CaseResult::id);
  }
  /// How many runner processes ran after run 1.
  std::size_t reruns() const { return requests.size() - 1; }
};

const std::string shared_log =
    "reduce3<int>\t__shared__ sdata in reduce3, bad.cu:14\nreduce3<long long>\t__shared__ sdata in reduce3, bad.cu:14\n";

}  // namespace

TEST_CASE("schedule_race::rerun_job") {
  RaceFixture fixture({});
  const Job& job = fixture.plan.job;
  REQUIRE(job.checks.size() == 4);
  RunOutcome ran = fixture.ran;
  ran.tasks[job.checks[1].id].outcome = Outcome::timeout;

  SUBCASE("only the check tasks that finished run again, reading the same inputs") {
    const Job again = rerun_job(job, ran, fixture.root / "reverse");
    REQUIRE(again.checks.size() == 3);
    CHECK(again.checks[0].id == job.checks[0].id);
    CHECK(again.checks[1].id == job.checks[2].id);
    CHECK(again.timings.empty());
    CHECK(again.checks[0].inputs_file == job.checks[0].inputs_file);
    CHECK(again.checks[0].output_file ==
          (fixture.root / "reverse" / fs::path(job.checks[0].output_file).filename()).string());
    CHECK(again.checks[0].readback_file ==
          (fixture.root / "reverse" / fs::path(job.checks[0].readback_file).filename()).string());
  }
  SUBCASE("or the tasks named") {
    const Job again = rerun_job(job, std::vector<std::string>{job.checks[3].id}, fixture.root / "poison-0");
    REQUIRE(again.checks.size() == 1);
    CHECK(again.checks[0].id == job.checks[3].id);
  }
}

TEST_CASE("schedule_race::mark_schedule_race") {
  SUBCASE("a pass becomes a wrong answer that names the race") {
    CaseResult c{.outcome = Outcome::passed};
    mark_schedule_race(c);
    CHECK(c.outcome == Outcome::wrong_answer);
    CHECK(c.message ==
          "results change when the order of threads changes: a race (e.g. a missing __syncthreads()) — "
          "schedule forward and reverse gave different outputs");
  }
  SUBCASE("a failure keeps its outcome and message, and gets the sentence appended") {
    CaseResult c{.outcome = Outcome::wrong_answer, .message = "37 of 4096 elements are wrong"};
    mark_schedule_race(c);
    CHECK(c.outcome == Outcome::wrong_answer);
    CHECK(c.message == std::string("37 of 4096 elements are wrong — ") + schedule_race_message);
  }
}

TEST_CASE("schedule_race::mark_uninitialised_shared") {
  CaseResult c{.outcome = Outcome::passed};
  mark_uninitialised_shared(c, " (__shared__ s in k, a.cu:3)");
  CHECK(c.outcome == Outcome::wrong_answer);
  CHECK(c.message ==
        "reads uninitialised __shared__ memory (__shared__ s in k, a.cu:3): results change when "
        "shared memory starts with other contents (every byte 0xFF, then 0x00), so a value is read before "
        "any thread of its block wrote it — initialise it first, or add the __syncthreads() that must "
        "separate the writes from the reads");
}

TEST_CASE("schedule_race::describe_shared_use") {
  RaceFixture fixture({});
  const fs::path log = fixture.root / "shared.log";
  auto described = [&](const std::string& text) {
    std::ofstream(log) << text;
    return describe_shared_use(log);
  };
  SUBCASE("one declaration, whichever instances of a template kernel use it") {
    CHECK(described(shared_log) == " (__shared__ sdata in reduce3, bad.cu:14)");
  }
  SUBCASE("several declarations") {
    CHECK(described("tiled\t__shared__ As in tiled, mm.cu:9\ntiled\t__shared__ Bs in tiled, mm.cu:10\n") ==
          " (one of: __shared__ As in tiled, mm.cu:9; __shared__ Bs in tiled, mm.cu:10)");
  }
  SUBCASE("dynamic shared memory: the declaration when there is one") {
    CHECK(described("r<2>\textern __shared__ memory of kernel r<2>\nr<2>\textern __shared__ sdata in r, r.cu:4\n") ==
          " (extern __shared__ sdata in r, r.cu:4)");
    CHECK(described("r<2>\textern __shared__ memory of kernel r<2>\n") == " (extern __shared__ memory of kernel r<2>)");
  }
  SUBCASE("dynamic shared memory a kernel is given but declares only static shared memory: not named") {
    CHECK(described("kernel\textern __shared__ memory of kernel kernel\nkernel\t__shared__ sdata in reduce2, r.cu:24\n") ==
          " (__shared__ sdata in reduce2, r.cu:24)");
  }
  SUBCASE("no log, or nothing well formed in it") {
    CHECK(describe_shared_use(fixture.root / "missing.log").empty());
    CHECK(described("garbage without a tab\n").empty());
  }
}

TEST_CASE("schedule_race::check_schedule_races") {
  SUBCASE("a correct kernel: one reversed run with the other poison, nothing marked") {
    RaceFixture fixture({});
    CHECK(fixture.check() == 0);
    REQUIRE(fixture.reruns() == 1);
    const ProcessRequest& second = fixture.requests[1];
    CHECK(second.environment.at(schedule_variable) == "reverse");
    CHECK(second.environment.at(poison_variable) == "00");
    CHECK(second.environment.at("PATH") == "/usr/bin");
    CHECK(fixture.jobs[1].checks.size() == 4);
    for (const CaseResult& c : fixture.cases) CHECK(c.outcome == Outcome::passed);
  }

  SUBCASE("a float sum by atomicAdd: other last bits in another order, within tolerance, passes") {
    RaceFixture fixture({[](const std::string& schedule, const std::string&, Array& y) {
      if (schedule == "reverse") y.data<float>()[0] = std::nextafter(y.data<float>()[0], 10.0f);
    }});
    CHECK(fixture.check() == 0);
    CHECK(fixture.reruns() == 1);
    for (const CaseResult& c : fixture.cases) CHECK(c.outcome == Outcome::passed);
  }

  SUBCASE("a race: only the order changes the result") {
    RaceFixture fixture({[](const std::string& schedule, const std::string&, Array& y) {
      if (schedule == "reverse") y.data<float>()[0] += 1.0f;
    }});
    CHECK(fixture.check() == 4);
    REQUIRE(fixture.reruns() == 3);  // run 2, then run 3 for each of the two steps
    const ProcessRequest& third = fixture.requests[2];
    CHECK(third.environment.at(schedule_variable) == "forward");
    CHECK(third.environment.at(poison_variable) == "00");
    CHECK(third.environment.at(shared_log_variable) == (fixture.root / "poison-0" / "shared.log").string());
    CHECK(fixture.jobs[2].checks.size() == 2);  // the step's disagreeing cases only
    for (const CaseResult& c : fixture.cases) {
      CHECK(c.outcome == Outcome::wrong_answer);
      CHECK(c.message == schedule_race_message);
    }
  }

  SUBCASE("an uninitialised read: only the poison changes the result; the declaration is named") {
    RaceFixture fixture({[](const std::string&, const std::string& poison, Array& y) {
                           if (poison == "00") y.data<float>()[1] = 0.0f;
                         },
                         shared_log});
    CHECK(fixture.check() == 4);
    const CaseResult& c = fixture.result("simple/n=5/seed=1");
    CHECK(c.outcome == Outcome::wrong_answer);
    CHECK(c.message.starts_with("reads uninitialised __shared__ memory (__shared__ sdata in reduce3, bad.cu:14): "
                                "results change"));
    CHECK(c.message.find("a race") == std::string::npos);
  }

  SUBCASE("kernels without shared memory: runs in the same order disagree, so neither shared memory nor a race") {
    // No shared.log lines: the step's kernels declare no shared memory, so runs 1 and 3 (both
    // forward) disagreeing cannot come from its poison, and says nothing about the order.
    RaceFixture fixture({[](const std::string&, const std::string& poison, Array& y) {
      if (poison == "00") y.data<float>()[1] = 0.0f;
    }});
    CHECK(fixture.check() == 4);
    const CaseResult& c = fixture.result("simple/n=5/seed=1");
    CHECK(c.outcome == Outcome::wrong_answer);
    CHECK(c.message == unsteady_message);
    CHECK(c.message.find("reads uninitialised __shared__") == std::string::npos);
    CHECK(c.message.find("a race") == std::string::npos);
  }

  SUBCASE("a missing __syncthreads(): both the poison and the order change it") {
    RaceFixture fixture({[](const std::string& schedule, const std::string& poison, Array& y) {
                           if (poison == "00") y.data<float>()[1] = 0.0f;
                           if (schedule == "reverse") y.data<float>()[0] = -1.0f;
                         },
                         shared_log});
    CHECK(fixture.check() == 4);
    const CaseResult& c = fixture.result("fast/n=40/seed=1");
    CHECK(c.message.starts_with("reads uninitialised __shared__ memory (__shared__ sdata"));
    CHECK(c.message.ends_with(std::string(" — ") + schedule_race_message));
  }

  SUBCASE("a kernel wrong in every run: a race only where the wrong results differ beyond tolerance") {
    RaceFixture fixture({[](const std::string& schedule, const std::string&, Array& y) {
      y.data<float>()[0] += 1.0f;
      if (schedule == "reverse" && y.size() > 5) y.data<float>()[0] += 1.0f;  // n = 40 only
    }});
    CHECK(fixture.check() == 2);
    const CaseResult& same = fixture.result("simple/n=5/seed=1");
    CHECK(same.outcome == Outcome::wrong_answer);
    CHECK(same.message.find("a race") == std::string::npos);
    const CaseResult& different = fixture.result("simple/n=40/seed=1");
    CHECK(different.outcome == Outcome::wrong_answer);
    CHECK(different.message.ends_with(schedule_race_message));
  }

  SUBCASE("nothing finished: no second run at all") {
    RaceFixture fixture({});
    for (auto& [id, status] : fixture.ran.tasks) status.outcome = Outcome::crashed;
    FakeProcessRunner idle;
    CHECK(check_schedule_races(idle, fixture.spec, fixture.plan, fixture.first, fixture.ran, fixture.cases) == 0);
    CHECK(idle.requests().empty());
  }
}

TEST_CASE("schedule_race::zero_poison_repeats") {
  RaceFixture fixture({});
  Job job = fixture.first.job;
  job.checks[1].reference = true;  // a reference-only step's case: the reference runner's
  const std::vector<CheckTask> repeats = zero_poison_repeats(job, fixture.root / "poison-00");
  REQUIRE(repeats.size() == job.checks.size() - 1);
  CHECK(fs::is_directory(fixture.root / "poison-00"));
  for (const CheckTask& repeat : repeats) {
    CHECK(repeat.id == repeat.repeats + "@00");
    CHECK(repeat.shared_poison == "00");
    CHECK(fs::path(repeat.output_file).parent_path() == fixture.root / "poison-00");
    CHECK(repeat.repeats != job.checks[1].id);
  }
  RunOutcome ran;
  ran.tasks["case-1"].outcome = Outcome::passed;
  ran.tasks["case-1@00"].outcome = Outcome::wrong_answer;
  const RunOutcome second = take_repeats(ran);
  CHECK(ran.tasks.size() == 1);
  REQUIRE(second.tasks.size() == 1);
  CHECK(second.tasks.at("case-1").outcome == Outcome::wrong_answer);
}

TEST_CASE("schedule_race::check_uninitialised_shared_on_gpu") {
  SUBCASE("a correct kernel: run 2 (0x00) in run 1's runner, no runner more, nothing marked") {
    RaceFixture fixture({}, true);
    CHECK(fixture.check_on_gpu() == 0);
    CHECK(fixture.reruns() == 0);
    REQUIRE(fixture.jobs.size() == 1);
    REQUIRE(fixture.jobs[0].checks.size() == 8);  // the four cases, then the four again
    CHECK(fixture.jobs[0].checks[4].shared_poison == "00");
    CHECK(fixture.second.tasks.size() == 4);
    for (const CaseResult& c : fixture.cases) CHECK(c.outcome == Outcome::passed);
  }

  SUBCASE("wrong with 0xFF, right with 0x00, wrong again with 0xFF: the uninitialised read is named") {
    RaceFixture fixture({[](const std::string&, const std::string& poison, Array& y) {
      if (poison == "ff" && y.size() > 5) y.data<float>()[1] = std::nanf("");  // n = 40 only
    }}, true);
    CHECK(fixture.check_on_gpu() == 2);
    REQUIRE(fixture.reruns() == 1);
    CHECK(fixture.requests[1].environment.at(poison_variable) == "ff");
    CHECK(fixture.jobs[1].checks.size() == 2);  // the disagreeing cases only
    const CaseResult& c = fixture.result("simple/n=40/seed=1");
    CHECK(c.outcome == Outcome::wrong_answer);
    CHECK(c.message.find("reads uninitialised __shared__ memory: results change when shared memory starts with "
                         "other contents") != std::string::npos);
    CHECK(fixture.result("simple/n=5/seed=1").outcome == Outcome::passed);
  }

  SUBCASE("right with 0xFF (NaN compares false) but wrong with 0x00: the pass becomes a wrong answer") {
    RaceFixture fixture({[](const std::string&, const std::string& poison, Array& y) {
      if (poison == "00") y.data<float>()[0] += 1.0f;
    }}, true);
    CHECK(fixture.check_on_gpu() == 4);
    const CaseResult& c = fixture.result("simple/n=5/seed=1");
    CHECK(c.outcome == Outcome::wrong_answer);
    CHECK(c.message.starts_with("reads uninitialised __shared__ memory"));
  }

  SUBCASE("wrong the same way whatever shared memory starts with: nothing said, no third run") {
    RaceFixture fixture({[](const std::string&, const std::string&, Array& y) { y.data<float>()[0] += 1.0f; }}, true);
    CHECK(fixture.check_on_gpu() == 0);
    CHECK(fixture.reruns() == 0);
    CHECK(fixture.result("simple/n=5/seed=1").message.find("uninitialised") == std::string::npos);
  }

  SUBCASE("results that change from run to run anyway: said so, not blamed on shared memory") {
    auto runs = std::make_shared<int>(0);
    RaceFixture fixture({[runs](const std::string&, const std::string&, Array& y) {
      y.data<float>()[0] += static_cast<float>(++*runs);
    }}, true);
    CHECK(fixture.check_on_gpu() == 4);
    const CaseResult& c = fixture.result("fast/n=40/seed=1");
    CHECK(c.message.find("uninitialised") == std::string::npos);
    CHECK(c.message.ends_with(gpu_unsteady_message));
  }

  SUBCASE("kernels that used no shared memory: a value read before it is set, not shared memory") {
    // The poison kernel leaves its byte in the registers too: an accumulator no one set starts
    // as NaN in run 1 and as 0 in run 2.
    RaceFixture fixture({[](const std::string&, const std::string& poison, Array& y) {
                           if (poison == "ff") y.data<float>()[0] = std::nanf("");
                         },
                         "", "no"},
                        true);
    CHECK(fixture.check_on_gpu() == 4);
    REQUIRE(fixture.reruns() == 1);  // run 3, which notes the kernels' shared memory; run 1 does not
    CHECK(fixture.requests[1].environment.at(runner::note_shared_memory_variable) == "1");
    CHECK_FALSE(fixture.requests[0].environment.contains(runner::note_shared_memory_variable));
    const CaseResult& c = fixture.result("simple/n=5/seed=1");
    CHECK(c.outcome == Outcome::wrong_answer);
    CHECK(c.message.ends_with(gpu_unset_value_message));
    CHECK(c.message.find(uninitialised_shared_message) == std::string::npos);
  }

  SUBCASE("a case run 2 never ran (an earlier case of its step hung there) says nothing") {
    RaceFixture fixture({[](const std::string&, const std::string& poison, Array& y) {
      if (poison == "00") y.data<float>()[0] += 1.0f;
    }}, true);
    for (auto& [id, status] : fixture.second.tasks) {
      status.outcome = Outcome::timeout;
      status.skipped = true;
    }
    CHECK(fixture.check_on_gpu() == 0);
    CHECK(fixture.reruns() == 0);
  }

  SUBCASE("nothing finished in run 1: no third run, nothing marked") {
    RaceFixture fixture({[](const std::string&, const std::string& poison, Array& y) {
      if (poison == "00") y.data<float>()[0] += 1.0f;
    }}, true);
    for (auto& [id, status] : fixture.ran.tasks) status.outcome = Outcome::crashed;
    CHECK(fixture.check_on_gpu() == 0);
    CHECK(fixture.reruns() == 0);
  }
}
