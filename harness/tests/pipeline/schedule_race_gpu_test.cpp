// The GPU's runs of the cases with shared memory starting otherwise (pipeline/schedule_race.hpp):
// the second run riding in the first's runner, the third, and what the student reads.
#include "pipeline/schedule_race.hpp"

#include <doctest/doctest.h>

#include <memory>

#include "check/index_evidence.hpp"
#include "pipeline/race_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

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

  SUBCASE("a wrong index that sends several elements to one place: told so already, no race named") {
    auto runs = std::make_shared<int>(0);
    RaceFixture fixture({[runs](const std::string&, const std::string&, Array& y) {
      y.data<float>()[0] += static_cast<float>(++*runs);
    }}, true);
    for (CaseResult& c : fixture.cases) {  // as check/index_evidence.hpp words such a case's output
      Comparison said;
      said.pattern = "the right values are at the wrong places: ... — the index is wrong: ...; so " +
                     std::string(stores_collide) + " (4 indices get more than one), and which one stays can change";
      c.comparisons.push_back(said);
    }
    CHECK(fixture.check_on_gpu() == 0);
    CHECK(fixture.reruns() == 0);
    for (const CaseResult& c : fixture.cases) CHECK(c.message.find("results change") == std::string::npos);
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

  SUBCASE("kernels that used no shared memory, results changing between runs that started alike: a race on "
          "global memory") {
    // Lost updates of a non-atomic += by several blocks: another sum each run, whatever the poison.
    auto runs = std::make_shared<int>(0);
    RaceFixture fixture({[runs](const std::string&, const std::string&, Array& y) {
                           y.data<float>()[0] += static_cast<float>(++*runs);
                         },
                         "", "no"},
                        true);
    CHECK(fixture.check_on_gpu() == 4);
    const CaseResult& c = fixture.result("simple/n=5/seed=1");
    CHECK(c.outcome == Outcome::wrong_answer);
    CHECK(c.message.ends_with(gpu_global_race_message));
    CHECK(c.message.find("atomicAdd") != std::string::npos);
    CHECK(c.message.find(gpu_unset_value_message) == std::string::npos);
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
