// What is run again alone and how it is said (harness/src/pipeline/alone_rerun.cpp): every case
// that did not pass, its files moved into folders of their own, the report's note naming the
// visible cases and counting the hidden ones. The run itself, end to end: check_submission_test.
#include "pipeline/alone_rerun.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "pipeline/check_submission.hpp"
#include "pipeline/sanitizer_fixture.hpp"
#include "pipeline/twice_fixture.hpp"
#include "report/json_report.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
CaseResult case_of(const std::string& id, const std::string& step, Outcome outcome, std::string message = "") {
  CaseResult c;
  c.id = id;
  c.step = step;
  c.outcome = outcome;
  c.message = std::move(message);
  return c;
}

CheckTask task_of(const std::string& id, bool reference = false) {
  CheckTask task;
  task.id = id;
  task.reference = reference;
  task.inputs_file = "/w/inputs/" + id + ".in";
  task.output_file = "/w/run/" + id + ".out";
  task.readback_file = "/w/run/" + id + ".readback";
  return task;
}
}  // namespace

TEST_CASE("pipeline::cases_not_passed") {
  const std::vector<CaseResult> cases{
      case_of("a", "naive", Outcome::passed),       case_of("b", "naive", Outcome::wrong_answer),
      case_of("c", "tiled", Outcome::timeout),      case_of("d", "tiled", Outcome::harness_error),
      case_of("e", "tiled", Outcome::not_run),      case_of("f", "tiled", Outcome::passed)};
  // Anything but a pass: a neighbour can make a case time out, crash, or leave the harness
  // without a verdict (its runner refused a context), and a case not run after a timeout.
  CHECK(cases_not_passed(cases) == std::vector<std::size_t>{1, 2, 3, 4});
  CHECK(cases_not_passed({}).empty());
  // A pass compute-sanitizer could not check beside others (its time limit, a tool that did not
  // start) is checked again alone: a neighbour must not spare a finding either.
  CHECK(cases_not_passed(cases, {"f", "b", "nowhere"}) == std::vector<std::size_t>{1, 2, 3, 4, 5});
}

TEST_CASE("pipeline::plan_of_cases") {
  CasePlan plan;
  plan.layout.run = "/w/run";
  plan.layout.reference = "/w/reference";
  for (const char* id : {"case-0", "case-1", "case-2"}) {
    plan.job.checks.push_back(task_of(id, std::string(id) == "case-2"));
    PlannedCase planned;
    planned.spec_case.id = std::string("spec-") + id;
    plan.cases.push_back(planned);
  }
  plan.job.timings.push_back(TimeTask{});
  const CasePlan cut = plan_of_cases(plan, {2, 0, 7}, "/w/run/alone", "/w/reference/alone");
  // In the order asked, an index past the plan left out; the cases and their tasks still in step.
  REQUIRE(cut.job.checks.size() == 2);
  REQUIRE(cut.cases.size() == 2);
  CHECK(cut.job.checks[0].id == "case-2");
  CHECK(cut.cases[0].spec_case.id == "spec-case-2");
  CHECK(cut.job.checks[1].id == "case-0");
  CHECK(cut.job.timings.empty());  // nothing is timed in a run again
  // The student's outputs into the new folder, the reference's into its own; inputs unchanged.
  CHECK(cut.job.checks[1].output_file == "/w/run/alone/case-0.out");
  CHECK(cut.job.checks[1].readback_file == "/w/run/alone/case-0.readback");
  CHECK(cut.job.checks[1].inputs_file == "/w/inputs/case-0.in");
  CHECK(cut.job.checks[0].output_file == "/w/reference/alone/case-2.out");
  CHECK(cut.layout.run == "/w/run/alone");
  CHECK(cut.layout.reference == "/w/reference/alone");
}

TEST_CASE("pipeline::alone_rerun_note") {
  std::vector<CaseResult> cases{case_of("naive/n=5", "naive", Outcome::passed),
                                case_of("tiled/n=40", "tiled", Outcome::wrong_answer),
                                case_of("hidden-3", "tiled", Outcome::passed)};
  CHECK(alone_rerun_note(cases, {}, {}).empty());  // none was run again
  CHECK(alone_rerun_note(cases, {0}, {"timeout"}) ==
        "1 case (step naive) did not pass beside other submissions on the GPU and was run again with the GPU alone; "
        "the run alone counts: naive/n=5 (beside others: timeout)");
  cases[2].visibility = Visibility::hidden;
  // A hidden case is counted, never named.
  CHECK(alone_rerun_note(cases, {0, 1, 2}, {"timeout", "wrong_answer", "crashed"}) ==
        "3 cases (steps naive, tiled) did not pass beside other submissions on the GPU and were run again with the "
        "GPU alone; the runs alone count: naive/n=5 (beside others: timeout), tiled/n=40 (beside others: "
        "wrong_answer) and 1 hidden");
  CHECK(alone_rerun_note(cases, {2}, {"crashed"}) ==
        "1 case (step tiled) did not pass beside other submissions on the GPU and was run again with the GPU alone; "
        "the run alone counts: 1 hidden");
}

// ---- end to end: a check on a lane of a graded batch whose GPU other lanes share ----

namespace {
/// The task ids of a runner's job, in order.
std::vector<std::string> ids_of(const Job& job) {
  std::vector<std::string> ids;
  for (const CheckTask& task : job.checks) ids.push_back(task.id);
  return ids;
}
}  // namespace

TEST_CASE("pipeline::run_again_alone in a check beside other lanes") {
  using namespace cugrade::test;
  PipelineFixture fixture;
  fixture.expect_gpu();
  fixture.expect_build();
  CheckContext context{fixture.processes, fixture.where};
  context.gpu_turns = std::make_shared<GpuTurns>();
  context.failures_again_alone = true;
  // The turn the check holds when its cases have run, and when it runs some again.
  std::vector<std::string> turns;
  fixture.options.progress = [&](const std::string& line) {
    if (line.starts_with("ran the cases") || line.starts_with("running the cases that did not pass"))
      turns.push_back(context.gpu_turns->alone_now()           ? "alone"
                      : context.gpu_turns->sharing() == 1 ? "shared"
                                                          : "none");
  };
  FakeStudent beside;  // what a neighbour made of its fast step: a wrong element in each case
  beside.tamper = [](const CheckTask& task, ArraySet& outputs, ArraySet&) {
    if (task.step == "fast") outputs.at("y").data<float>()[0] += 1.0f;
  };
  const auto check = [&] {
    BuiltSubmission built = build_for_check(context, fixture.spec, twice_grader, fixture.options);
    return score_submission(context, fixture.spec, fixture.options,
                            run_submission(context, fixture.spec, twice_grader, fixture.options, std::move(built)));
  };
  const std::vector<std::string> fast_tasks{fixture.task_id_of("fast/n=5/seed=1"), fixture.task_id_of("fast/n=40/seed=1")};
  // compute-sanitizer "installed" (each of its runs scripted by the subcase) and asked for.
  const auto use_sanitizer = [&] {
    const fs::path sanitizer = fixture.root / "cuda" / "compute-sanitizer" / "compute-sanitizer";
    fs::create_directories(sanitizer.parent_path());
    std::ofstream(sanitizer) << "#!/bin/sh\n";
    context.locations.compute_sanitizer = sanitizer;
    fixture.options.sanitizer = true;
  };

  SUBCASE("wrong beside others, right alone: the run alone counts, and the report says so") {
    fixture.expect_runner(beside);
    fixture.expect_runner();  // alone
    const GradeReport report = check();
    CHECK(fixture.processes.pending() == 0);
    CHECK(report.outcome == Outcome::passed);
    CHECK(report.score == doctest::Approx(4.0));
    CHECK(turns == std::vector<std::string>{"shared", "alone"});
    CHECK_FALSE(context.gpu_turns->alone_now());  // given back
    // Only the two cases that failed ran again, in a folder of their own.
    REQUIRE(fixture.jobs.size() == 2);
    CHECK(ids_of(fixture.jobs[1]) == fast_tasks);
    CHECK(fs::path(fixture.jobs[1].checks[0].output_file).parent_path().filename() == "alone");
    for (const char* id : {"fast/n=5/seed=1", "fast/n=40/seed=1"}) CHECK(case_of(report, id).outcome == Outcome::passed);
    // The note says it in the canonical record and every rendering of it.
    const std::string note =
        "2 cases (step fast) did not pass beside other submissions on the GPU and were run again with the GPU alone; "
        "the runs alone count: fast/n=5/seed=1 (beside others: wrong_answer), fast/n=40/seed=1 (beside others: "
        "wrong_answer)";
    CHECK(std::find(report.notes.begin(), report.notes.end(), note) != report.notes.end());
    CHECK(report_to_json(report).dump().find("were run again with the GPU alone") != std::string::npos);
  }
  SUBCASE("wrong alone too: the run alone stands") {
    fixture.expect_runner(beside);
    fixture.expect_runner(beside);
    const GradeReport report = check();
    CHECK(fixture.processes.pending() == 0);
    CHECK(report.outcome == Outcome::wrong_answer);
    CHECK(report.score == doctest::Approx(2.0));
    CHECK(case_of(report, "fast/n=5/seed=1").outcome == Outcome::wrong_answer);
    REQUIRE(case_of(report, "fast/n=5/seed=1").comparisons.size() == 1);
    CHECK(case_of(report, "fast/n=5/seed=1").comparisons[0].wrong == 1);  // as the run alone found it
    CHECK(std::count_if(report.notes.begin(), report.notes.end(), [](const std::string& n) {
            return n.find("run again with the GPU alone") != std::string::npos;
          }) == 1);
  }
  SUBCASE("a case that timed out beside others, and the one not run after it, run again alone") {
    FakeStudent hung;
    hung.ends["fast/n=5/seed=1"] = timed_out();
    fixture.expect_runner(hung);
    fixture.expect_runner();
    const GradeReport report = check();
    CHECK(report.outcome == Outcome::passed);
    REQUIRE(fixture.jobs.size() == 2);
    CHECK(ids_of(fixture.jobs[1]) == fast_tasks);
    CHECK(std::find(report.notes.begin(), report.notes.end(),
                    "2 cases (step fast) did not pass beside other submissions on the GPU and were run again with the "
                    "GPU alone; the runs alone count: fast/n=5/seed=1 (beside others: timeout), fast/n=40/seed=1 "
                    "(beside others: timeout)") != report.notes.end());
  }
  SUBCASE("passed, yet compute-sanitizer could not check them beside others: checked again alone") {
    use_sanitizer();
    const auto refused = [](const ProcessRequest&) { return fake_exit(1, "", "out of memory\n"); };
    fixture.expect_runner();
    fixture.processes.expect(refused);  // memcheck's runner, beside others
    fixture.expect_runner();            // alone: the cases, then memcheck again
    fixture.processes.expect(refused);
    const GradeReport report = check();
    CHECK(fixture.processes.pending() == 0);
    CHECK(report.outcome == Outcome::passed);
    REQUIRE(fixture.jobs.size() == 2);
    CHECK(fixture.jobs[1].checks.size() == 4);  // every sanitized case: all four
    CHECK(std::count_if(report.notes.begin(), report.notes.end(), [](const std::string& n) {
            return n.find("(beside others: passed, not checked by compute-sanitizer)") != std::string::npos;
          }) == 1);
    CHECK(std::count_if(report.notes.begin(), report.notes.end(), [](const std::string& n) {
            return n.starts_with("alone: compute-sanitizer could not check the cases");
          }) == 1);
  }
  SUBCASE("wrong beside others where compute-sanitizer found nothing: run again alone, not sanitized again") {
    use_sanitizer();
    std::vector<std::string> tools;
    std::mutex mutex;
    fixture.expect_runner(beside);
    fixture.processes.expect(sanitized_runner({}, &tools, &mutex));  // memcheck beside others: nothing found
    fixture.expect_runner();                                         // alone: the two cases, and no sanitizer
    const GradeReport report = check();
    CHECK(fixture.processes.pending() == 0);
    CHECK(tools == std::vector<std::string>{"memcheck"});
    CHECK(report.outcome == Outcome::passed);
    REQUIRE(fixture.jobs.size() == 2);
    CHECK(ids_of(fixture.jobs[1]) == fast_tasks);
  }
  SUBCASE("a race beside others: the step's further cases wait for the run alone, which checks them once") {
    use_sanitizer();
    std::ofstream(fixture.source(), std::ios::app) << "__global__ void tiled() { __shared__ float tile[256]; }\n";
    fixture.spec.cases[0].sizes.push_back({{"n", 20000}});  // 80 000 bytes of input: checked only after a race
    const std::string raced = fixture.task_id_of("simple/n=5/seed=1");
    const std::string larger = fixture.task_id_of("simple/n=20000/seed=1");
    std::vector<std::string> tools;
    std::mutex mutex;
    fixture.expect_runner();  // beside others: the cases, then memcheck and racecheck's first cases
    for (int i = 0; i < 2; ++i) fixture.processes.expect(sanitized_runner({}, &tools, &mutex, {raced, larger}));
    fixture.expect_runner();  // alone: the raced case and the one left, then memcheck, racecheck, racecheck after the race
    for (int i = 0; i < 3; ++i) fixture.processes.expect(sanitized_runner({}, &tools, &mutex, {raced, larger}));
    const GradeReport report = check();
    CHECK(fixture.processes.pending() == 0);
    std::sort(tools.begin(), tools.end());
    CHECK(tools == std::vector<std::string>{"memcheck", "memcheck", "racecheck", "racecheck", "racecheck"});
    CHECK(case_of(report, "simple/n=5/seed=1").outcome == Outcome::wrong_answer);
    CHECK(case_of(report, "simple/n=20000/seed=1").outcome == Outcome::wrong_answer);  // its race, found alone
    CHECK(case_of(report, "simple/n=20000/seed=1").message.find("a race on __shared__ memory") != std::string::npos);
    CHECK(case_of(report, "simple/n=40/seed=1").outcome == Outcome::passed);
    const auto has_note = [&](const std::string& text) {
      return std::any_of(report.notes.begin(), report.notes.end(),
                         [&](const std::string& n) { return n.find(text) != std::string::npos; });
    };
    CHECK(has_note("the step's other cases are checked with the GPU alone: simple (1 more case)"));
    CHECK(has_note("simple/n=20000/seed=1 (beside others: passed, not checked by compute-sanitizer)"));
    CHECK(has_note("alone: racecheck found a race on shared memory, so it checked every case of the step: simple (1 more case)"));
  }
  SUBCASE("every case passed beside others: nothing run again, no turn alone") {
    fixture.expect_runner();
    const GradeReport report = check();
    CHECK(report.outcome == Outcome::passed);
    CHECK(fixture.jobs.size() == 1);
    CHECK(turns == std::vector<std::string>{"shared"});
    for (const std::string& n : report.notes) CHECK(n.find("run again") == std::string::npos);
  }
  SUBCASE("the self-test's lanes (no run again asked): the run beside others counts") {
    context.failures_again_alone = false;
    fixture.expect_runner(beside);
    const GradeReport report = check();
    CHECK(fixture.processes.pending() == 0);
    CHECK(report.outcome == Outcome::wrong_answer);
    CHECK(fixture.jobs.size() == 1);
    CHECK(turns == std::vector<std::string>{"shared"});
  }
}
