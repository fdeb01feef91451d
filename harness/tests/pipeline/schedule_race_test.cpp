// Races and uninitialised shared memory on the CPU backend by running the cases again: which
// tasks run again, under which schedule and poison, and what the student reads when the runs
// disagree.
#include "pipeline/schedule_race.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <set>

#include "pipeline/race_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

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
          "results change when the order of threads changes: a race (e.g. a missing __syncthreads(), or a missing "
          "__syncwarp() between the steps of warp-synchronous code) — schedule forward and reverse gave different "
          "outputs");
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
  // Replaced whole, declarations included, between the sentences around it.
  std::string message = "36 of 37 elements are wrong — " + c.message + " — across the cases: …";
  CHECK(replace_uninitialised_shared(message, "X"));
  CHECK(message == "36 of 37 elements are wrong — X — across the cases: …");
  CHECK_FALSE(replace_uninitialised_shared(message, "X"));
  CHECK_FALSE(says_results_change_between_runs(c.message));  // shared memory's start, not the runs
  CHECK(says_results_change_between_runs(schedule_race_message));
  CHECK(says_results_change_between_runs(gpu_unsteady_message));
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
    // Run 2, then runs 3 and 4 for each of the two steps: their kernels declare no shared memory
    // (no log), so run 3 is run again to see that the result does not change with nothing changed.
    REQUIRE(fixture.reruns() == 5);
    const ProcessRequest& third = fixture.requests[2];
    CHECK(third.environment.at(schedule_variable) == "forward");
    CHECK(third.environment.at(poison_variable) == "00");
    CHECK(third.environment.at(shared_log_variable) == (fixture.root / "poison-0" / "shared.log").string());
    CHECK(fixture.jobs[2].checks.size() == 2);  // the step's disagreeing cases only
    const ProcessRequest& fourth = fixture.requests[3];
    CHECK(fourth.environment.at(schedule_variable) == "forward");
    CHECK(fourth.environment.at(poison_variable) == "00");
    CHECK(fixture.jobs[3].checks.size() == 2);
    for (const CaseResult& c : fixture.cases) {
      CHECK(c.outcome == Outcome::wrong_answer);
      CHECK(c.message == global_order_race_message);  // no __shared__ declared: no barrier suggested
      CHECK(c.message.find("__syncthreads") == std::string::npos);
    }
  }

  SUBCASE("a race where the kernels declare shared memory: a missing barrier is suggested, no run 4") {
    RaceFixture fixture({[](const std::string& schedule, const std::string&, Array& y) {
                           if (schedule == "reverse") y.data<float>()[0] += 1.0f;
                         },
                         shared_log});
    CHECK(fixture.check() == 4);
    CHECK(fixture.reruns() == 3);  // run 2, and run 3 for each of the two steps
    for (const CaseResult& c : fixture.cases) {
      CHECK(c.outcome == Outcome::wrong_answer);
      CHECK(c.message == schedule_race_message);
    }
  }

  SUBCASE("no shared memory, runs 1 and 3 alike by chance: a result that changes with nothing changed is not the order's") {
    // The blocks' timing changes the result (every forward run from the fifth process on differs):
    // runs 1 and 3 happened to agree, run 2 (reverse) differs, and runs 3 and 4 differ.
    auto calls = std::make_shared<int>(0);
    RaceFixture fixture({[calls](const std::string& schedule, const std::string&, Array& y) {
      const int call = ++*calls;  // run 1: calls 1-4, run 2: 5-8, step fast's runs 3 and 4: 9-10, 11-12
      if (schedule == "reverse") y.data<float>()[1] = -1.0f;
      else if (call > 10) y.data<float>()[1] = static_cast<float>(call);
    }});
    CHECK(fixture.check() == 4);
    for (const CaseResult& c : fixture.cases) {
      CHECK(c.outcome == Outcome::wrong_answer);
      CHECK(c.message == unsteady_message);
      CHECK(c.message.find("a race") == std::string::npos);
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
    // (Its step declares no shared memory: run 4 repeats run 3 for the case whose runs 2 and 3 differ.)
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
    CHECK(different.message.ends_with(global_order_race_message));
  }

  SUBCASE("nothing finished: no second run at all") {
    RaceFixture fixture({});
    for (auto& [id, status] : fixture.ran.tasks) status.outcome = Outcome::crashed;
    FakeProcessRunner idle;
    CHECK(check_schedule_races(idle, fixture.spec, fixture.plan, fixture.first, fixture.ran, fixture.cases) == 0);
    CHECK(idle.requests().empty());
  }
}
