// run_selftest(): how each report is judged; the options each entry is checked with.
#include "pipeline/selftest.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "core/work_dir.hpp"
#include "pipeline/entry_order.hpp"
#include "pipeline/twice_fixture.hpp"
#include "spec/spec_loader.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("pipeline::run_selftest") {
  PipelineFixture fixture;
  SelftestEntry reference{"reference", {fixture.source()}};
  reference.expect_full_marks = true;
  SelftestEntry starter{"template", {fixture.source()}};
  starter.expect_failure = true;
  SelftestEntry bad{"bad/last.cu", {fixture.source()}};
  bad.expected = Outcome::wrong_answer;
  FakeStudent last_wrong;
  last_wrong.tamper = [](const CheckTask&, ArraySet& outputs, ArraySet&) {
    Array& y = outputs.at("y");
    y.data<float>()[y.size() - 1] = 0.5f;
  };
  auto expect_check = [&fixture](FakeStudent student) {
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner(std::move(student));
  };
  auto run = [&fixture](const std::vector<SelftestEntry>& entries) {
    auto results = run_selftest(CheckContext{fixture.processes, fixture.where}, fixture.spec, twice_grader,
                                entries, fixture.options, {}, {.jobs = 1});  // the scripted machine expects one check after another
    CHECK(fixture.processes.pending() == 0);
    return results;
  };

  SUBCASE("a reference with full marks and a failing template are ok") {
    expect_check({});
    expect_check(last_wrong);
    const auto results = run({reference, starter});
    REQUIRE(results.size() == 2);
    SUBCASE("each result is heard as soon as it is judged") {
      expect_check({});
      std::vector<std::string> heard;
      run_selftest(CheckContext{fixture.processes, fixture.where}, fixture.spec, twice_grader, {reference}, fixture.options,
                   [&heard](const SelftestResult& r) { heard.push_back(r.entry.label + (r.ok ? " ok" : " FAIL")); }, {.jobs = 1});
      CHECK(heard == std::vector<std::string>{"reference ok"});
    }
    CHECK(results[0].ok);
    CHECK(results[0].why.empty());
    CHECK(results[0].report.score == 4.0);
    CHECK(results[1].ok);
    CHECK(results[1].report.outcome == Outcome::wrong_answer);
  }

  SUBCASE("with the last run's seconds kept, the longest starts first; the results keep the listing's order") {
    const fs::path dir = make_work_dir({}, "cugrade-selftest-order-");
    const fs::path file = dir / "selftest-seconds.json";
    const std::string backend = fixture.options.backend == Backend::cuda ? "cuda" : "cpu";
    save_entry_seconds(file, {{entry_seconds_key(backend, fixture.spec.id, reference), 1.0},
                              {entry_seconds_key(backend, fixture.spec.id, starter), 9.0}});
    expect_check(last_wrong);  // the template's, scripted first
    expect_check({});
    std::vector<std::string> heard;
    const auto results = run_selftest(CheckContext{fixture.processes, fixture.where}, fixture.spec, twice_grader,
                                      {reference, starter}, fixture.options,
                                      [&heard](const SelftestResult& r) { heard.push_back(r.entry.label); },
                                      {.jobs = 1, .seconds_file = file});
    CHECK(fixture.processes.pending() == 0);
    CHECK(heard == std::vector<std::string>{"template", "reference"});
    REQUIRE(results.size() == 2);
    CHECK(results[0].entry.label == "reference");
    CHECK(results[0].ok);
    CHECK(results[1].ok);
    // This run's seconds replace the last's.
    const auto kept = load_entry_seconds(file);
    CHECK(kept.size() == 2);
    CHECK(kept.at(entry_seconds_key(backend, fixture.spec.id, starter)) < 9.0);
    fs::remove_all(dir);
  }

  SUBCASE("a first run orders by the course's own seconds; this machine's kept seconds come before them") {
    const fs::path dir = make_work_dir({}, "cugrade-selftest-first-order-");
    const fs::path shipped = dir / "shipped.json";
    const fs::path kept = dir / "kept.json";
    const std::string backend = fixture.options.backend == Backend::cuda ? "cuda" : "cpu";
    const std::string reference_key = entry_seconds_key(backend, fixture.spec.id, reference);
    const std::string starter_key = entry_seconds_key(backend, fixture.spec.id, starter);
    save_entry_seconds(shipped, {{reference_key, 1.0}, {starter_key, 9.0}});
    std::vector<std::string> heard;
    const auto hear = [&heard](const SelftestResult& r) { heard.push_back(r.entry.label); };
    SUBCASE("nothing kept here: the course's seconds") {
      expect_check(last_wrong);  // the template's, scripted first
      expect_check({});
      run_selftest(CheckContext{fixture.processes, fixture.where}, fixture.spec, twice_grader, {reference, starter},
                   fixture.options, hear, {.jobs = 1, .seconds_file = kept, .first_seconds_file = shipped});
      CHECK(heard == std::vector<std::string>{"template", "reference"});
      CHECK(load_entry_seconds(shipped).at(starter_key) == 9.0);  // only read
      CHECK(load_entry_seconds(kept).size() == 2);                // this run's, kept here
    }
    SUBCASE("this machine's seconds win") {
      save_entry_seconds(kept, {{reference_key, 20.0}});
      expect_check({});  // the reference's, first
      expect_check(last_wrong);
      run_selftest(CheckContext{fixture.processes, fixture.where}, fixture.spec, twice_grader, {reference, starter},
                   fixture.options, hear, {.jobs = 1, .seconds_file = kept, .first_seconds_file = shipped});
      CHECK(heard == std::vector<std::string>{"reference", "template"});
    }
    CHECK(fixture.processes.pending() == 0);
    fs::remove_all(dir);
  }

  SUBCASE("several assignments in one batch: each entry graded on its own spec, in order, and says whose it is") {
    Spec other = fixture.spec;  // the scripted build expects this assignment's runner library
    other.title = "Twice, again";
    expect_check({});
    expect_check(last_wrong);
    const auto results =
        run_selftest(CheckContext{fixture.processes, fixture.where},
                     {SelftestSuite{&fixture.spec, &twice_grader, {reference}}, SelftestSuite{&other, &twice_grader, {bad}}},
                     fixture.options, {}, {.jobs = 1});
    CHECK(fixture.processes.pending() == 0);
    REQUIRE(results.size() == 2);
    CHECK(results[0].assignment == fixture.spec.id);
    CHECK(results[0].ok);
    CHECK(results[0].report.title == fixture.spec.title);
    CHECK(results[1].assignment == fixture.spec.id);
    CHECK(results[1].report.title == "Twice, again");
    CHECK(results[1].ok);
    CHECK(results[1].stages.run >= 0.0);
  }

  SUBCASE("the reference entry checks the reference-only steps too, through the reference's functions") {
    Step exact = fixture.spec.steps.front();
    exact.name = "exact";
    exact.entry = "twice_exact";
    exact.reference_only = true;
    fixture.spec.steps.push_back(exact);
    reference.reference_only_steps = true;
    expect_check({});
    fixture.expect_reference_runner();  // the reference-only steps' cases
    expect_check(last_wrong);
    const auto results = run({reference, starter});
    REQUIRE(results.size() == 2);
    CHECK(results[0].ok);
    CHECK(results[0].report.max_score == 6.0);
    CHECK(case_of(results[0].report, "exact/n=5/seed=1").outcome == Outcome::passed);
    CHECK(results[1].report.max_score == 4.0);  // the template is a student's file: not its steps
    REQUIRE(fixture.jobs.size() == 3);
    CHECK(fixture.jobs[0].checks.size() == 4);  // the reference's files as a student's, in its runner
    CHECK(fixture.jobs[1].checks.size() == 2);  // the reference-only steps, in the reference runner
    for (const auto& task : fixture.jobs[1].checks) CHECK((task.reference && task.step == "exact"));
    CHECK(fixture.jobs[2].checks.size() == 4);
  }

  SUBCASE("a template that passes, a wrong outcome, a missing feedback: each says why") {
    expect_check({});
    expect_check({});
    expect_check(last_wrong);
    SelftestEntry crash = bad;
    crash.expected = Outcome::crashed;
    bad.feedback = "every element is wrong";
    const auto results = run({starter, crash, bad});
    REQUIRE(results.size() == 3);
    CHECK_FALSE(results[0].ok);
    CHECK(results[0].why == "the template passed; it must fail");
    CHECK_FALSE(results[1].ok);
    CHECK(results[1].why == "expected crashed, got passed");
    CHECK_FALSE(results[2].ok);
    CHECK(results[2].why == "the feedback does not contain \"every element is wrong\"");
  }

  SUBCASE("the right outcome is not enough: more points than allowed, or a text that must be absent") {
    expect_check({});
    expect_check(last_wrong);
    expect_check(last_wrong);
    SelftestEntry greedy = bad;
    greedy.expected = Outcome::passed;
    greedy.score_at_most = 3.0;  // all four of its cases pass
    SelftestEntry leaky = bad;
    leaky.absent = "n=5";  // a case id: in every report
    SelftestEntry within = bad;
    within.score_at_most = 0.0;
    within.performance_at_most = 0.0;
    within.seconds_at_most = 600.0;
    within.absent = "root:x:0:0";
    const auto results = run({greedy, leaky, within});
    REQUIRE(results.size() == 3);
    CHECK_FALSE(results[0].ok);
    CHECK(results[0].why == "earned 4 points, at most 3 allowed");
    CHECK_FALSE(results[1].ok);
    CHECK(results[1].why == "the report contains \"n=5\"");
    CHECK(results[2].ok);
    CHECK(results[2].seconds >= 0.0);
  }

  SUBCASE("feedback is found in the comparisons' patterns") {
    expect_check(last_wrong);
    bad.feedback = "only the last element is wrong";
    const auto results = run({bad});
    REQUIRE(results.size() == 1);
    CHECK(results[0].ok);
  }

  SUBCASE("a GPU-flaky entry that fails on the GPU needs not carry the CPU backend's diagnosis") {
    expect_check(last_wrong);
    bad.flaky_on_gpu = true;
    bad.feedback = "reads uninitialised __shared__ memory";
    const auto results = run({bad});
    REQUIRE(results.size() == 1);
    CHECK(results[0].report.outcome == Outcome::wrong_answer);
    CHECK(results[0].ok);
  }

  SUBCASE("an entry for another backend is skipped without a build; a GPU-flaky one may pass") {
    expect_check({});  // only the flaky entry is graded: the backend asked for is cuda
    SelftestEntry cpu_only = bad;
    cpu_only.backends = {"cpu"};
    SelftestEntry flaky = bad;
    flaky.flaky_on_gpu = true;
    const auto results = run({cpu_only, flaky});
    REQUIRE(results.size() == 1);
    CHECK(results[0].entry.flaky_on_gpu);
    CHECK(results[0].ok);
  }

  SUBCASE("with --no-sanitizer on a GPU, an entry whose outcome is the sanitizer's finding is left out unbuilt") {
    expect_check({});  // only the plain entry is graded
    SelftestEntry found = bad;
    found.sanitizer = true;
    SelftestEntry plain{"good/plain.cu", {fixture.source()}};
    fixture.options.sanitizer = false;
    const auto results = run({found, plain});
    REQUIRE(results.size() == 1);
    CHECK(results[0].entry.label == "good/plain.cu");
    CHECK(results[0].ok);
  }

  SUBCASE("beside other runs on the GPU, a miss is graded again alone, and the result says what it got beside them") {
    SelftestEntry plain{"good/plain.cu", {fixture.source()}};
    const auto side_by_side = [&](const std::vector<SelftestEntry>& entries) {
      auto results = run_selftest(CheckContext{fixture.processes, fixture.where}, fixture.spec, twice_grader, entries,
                                  fixture.options, {}, {.jobs = 1, .runs_per_gpu = 2});
      CHECK(fixture.processes.pending() == 0);
      return results;
    };
    SUBCASE("right alone: ok") {
      expect_check(last_wrong);  // beside the others
      expect_check({});          // built again, alone
      const auto results = side_by_side({plain});
      REQUIRE(results.size() == 1);
      CHECK(results[0].ok);
      CHECK(results[0].report.outcome == Outcome::passed);
      CHECK(results[0].beside_others == "wrong_answer: expected passed, got wrong_answer (simple/n=5/seed=1: wrong_answer)");
    }
    SUBCASE("wrong alone too: the miss alone is the verdict") {
      expect_check(last_wrong);
      expect_check(last_wrong);
      const auto results = side_by_side({plain});
      REQUIRE(results.size() == 1);
      CHECK_FALSE(results[0].ok);
      CHECK(results[0].why == "expected passed, got wrong_answer");
      CHECK_FALSE(results[0].beside_others.empty());
    }
    SUBCASE("an entry graded alone (`alone: true`) is graded once: its miss is the verdict") {
      SelftestEntry hog = plain;
      hog.alone = true;
      expect_check(last_wrong);
      const auto results = side_by_side({hog});
      REQUIRE(results.size() == 1);
      CHECK_FALSE(results[0].ok);
      CHECK(results[0].why == "expected passed, got wrong_answer");
      CHECK(results[0].beside_others.empty());
    }
    SUBCASE("an entry that meets its expectation is graded once") {
      expect_check(last_wrong);
      const auto results = side_by_side({bad});
      REQUIRE(results.size() == 1);
      CHECK(results[0].ok);
      CHECK(results[0].beside_others.empty());
    }
  }

  SUBCASE("a template fails as it must only by its own doing, not by a fault of cugrade's") {
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_unstartable_runner();
    const auto results = run({starter});
    REQUIRE(results.size() == 1);
    CHECK(results[0].report.outcome == Outcome::harness_error);
    CHECK_FALSE(results[0].ok);
    CHECK(results[0].why.starts_with("the template got harness_error ("));
  }

  SUBCASE("a GPU-flaky entry may get any outcome a student can get, but not a fault of cugrade's") {
    fixture.expect_gpu();
    fixture.expect_missing_nvcc();
    bad.flaky_on_gpu = true;
    const auto results = run({bad});
    REQUIRE(results.size() == 1);
    CHECK(results[0].report.outcome == Outcome::harness_error);
    CHECK_FALSE(results[0].ok);
    CHECK(results[0].why.starts_with("got harness_error (nvcc could not be started"));
  }

  SUBCASE("an unexpected fault of cugrade's says what went wrong") {
    fixture.expect_gpu();
    fixture.expect_missing_nvcc();
    SelftestEntry plain{"good/plain.cu", {fixture.source()}};
    const auto results = run({plain});
    REQUIRE(results.size() == 1);
    CHECK_FALSE(results[0].ok);
    CHECK(results[0].why.starts_with("expected passed, got harness_error (nvcc could not be started"));
  }
}

TEST_CASE("pipeline::default_runs_per_gpu") {
  CHECK(default_runs_per_gpu(16) == 6);  // measured on a 16-core H100 machine
  CHECK(default_runs_per_gpu(64) == 6);  // 8 beside each other failed more neighbours there
  CHECK(default_runs_per_gpu(8) == 3);
  CHECK(default_runs_per_gpu(4) == 1);
  CHECK(default_runs_per_gpu(2) == 1);
  CHECK(default_runs_per_gpu(0) == 1);
  // Half as many again once every entry is built; one at a time stays one.
  CHECK(default_runs_per_gpu_once_built(16) == 9);
  CHECK(default_runs_per_gpu_once_built(8) == 4);
  CHECK(default_runs_per_gpu_once_built(4) == 1);
}

TEST_CASE("pipeline::selftest_check_options") {
  CheckOptions options;
  options.diagnosis = true;
  options.runner_environment["CUDA_VISIBLE_DEVICES"] = "1";
  SelftestEntry slow;
  slow.files = {"bad/slow.cu"};
  slow.diagnosis = {{"tiled", "no_reuse"}};
  SelftestEntry plain;
  plain.files = {"good/plain.cu"};
  plain.reference_only_steps = true;
  // Profiled only where the entry names the cause it must get.
  const CheckOptions for_slow = selftest_check_options(options, slow, 0);
  CHECK(for_slow.diagnosis);
  CHECK(for_slow.diagnosed_steps == std::set<std::string>{"tiled"});  // not its other slow steps
  CHECK_FALSE(for_slow.diagnosis_lines);  // the cause is judged, not its line: no source page profiled
  CHECK(for_slow.submission == std::vector<fs::path>{"bad/slow.cu"});
  CHECK_FALSE(for_slow.runner_environment.contains(cpu_threads_variable));
  const CheckOptions for_plain = selftest_check_options(options, plain, 4);
  CHECK_FALSE(for_plain.diagnosis);
  CHECK(for_plain.reference_only_steps);
  CHECK(for_plain.runner_environment.at(cpu_threads_variable) == "4");
  CHECK(for_plain.runner_environment.at("CUDA_VISIBLE_DEVICES") == "1");
  // --no-diagnosis holds for every entry.
  options.diagnosis = false;
  CHECK_FALSE(selftest_check_options(options, slow, 0).diagnosis);
  // Timed only where the expectation speaks of performance.
  options.performance = true;
  SelftestEntry wrong;
  wrong.expected = Outcome::wrong_answer;
  CHECK_FALSE(selftest_check_options(options, wrong, 0).performance);
  wrong.score_at_most = 0.0;  // an attack's bound counts performance points too
  CHECK(selftest_check_options(options, wrong, 0).performance);
  CHECK(selftest_check_options(options, plain, 0).performance);  // must pass
  options.performance = false;  // --no-performance holds for every entry
  CHECK_FALSE(selftest_check_options(options, plain, 0).performance);
}

TEST_CASE("pipeline::judged_on_performance") {
  SelftestEntry reference;
  reference.expect_full_marks = true;
  CHECK(judged_on_performance(reference));
  SelftestEntry starter;
  starter.expect_failure = true;
  CHECK_FALSE(judged_on_performance(starter));
  SelftestEntry good;  // expected: passed
  CHECK(judged_on_performance(good));
  SelftestEntry crashing;
  crashing.expected = Outcome::cuda_error;
  CHECK_FALSE(judged_on_performance(crashing));
  crashing.performance_at_most = 0.0;
  CHECK(judged_on_performance(crashing));
  SelftestEntry slow;
  slow.expected = Outcome::wrong_answer;
  slow.diagnosis = {{"tiled", "no_reuse"}};
  CHECK(judged_on_performance(slow));
}
