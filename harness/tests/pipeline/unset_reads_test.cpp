#include "pipeline/unset_reads.hpp"

#include <doctest/doctest.h>

#include "core/locations.hpp"
#include "core/work_dir.hpp"
#include "pipeline/sanitized_runs.hpp"
#include "pipeline/schedule_race.hpp"
#include "process/process_runner.hpp"
#include "spec/spec_loader.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {

Diagnostic warning(std::string file, int line, std::string message) {
  return Diagnostic{std::move(file), line, 9, "warning", std::move(message)};
}

}  // namespace

TEST_CASE("unset_reads::unset_reads_sentence") {
  CHECK(unset_reads_sentence({}).empty());
  const std::string one = unset_reads_sentence({warning("matmul.cu", 12, "'Pvalue' may be used uninitialized")});
  CHECK(one ==
        "results change between runs of the same inputs: `Pvalue` is used uninitialised, read before it is set (the "
        "read is at "
        "matmul.cu:12), so it starts as whatever the memory or register held; give it a value before its first use "
        "(`= 0` where it is declared, for a sum)");
  // A variable warned twice is named once, at its first read.
  const std::string two = unset_reads_sentence({warning("m.cu", 12, "'a' may be used uninitialized"),
                                                warning("m.cu", 14, "'a' is used uninitialized"),
                                                warning("m.cu", 30, "'b' is used uninitialized")});
  CHECK(two.find("`a` is used uninitialised, read before it is set (the read is at m.cu:12); `b` is used "
                 "uninitialised, read before it is set (the read is at m.cu:30)") != std::string::npos);
  CHECK(two.find("m.cu:14") == std::string::npos);
}

TEST_CASE("unset_reads::explain_by_unset_reads") {
  // matmul/naive_accumulator_uninitialised on an H200: an unset accumulator was told "threads race"
  // (two runs that started alike still differed: the register holds what ran before).
  std::vector<CaseResult> cases(6);
  for (CaseResult& c : cases) {
    c.step = "naive";
    c.outcome = Outcome::wrong_answer;
  }
  cases[0].message = std::string("3 of 9 elements are wrong — ") + gpu_global_race_message;
  cases[1].message = std::string(gpu_unsteady_message) + " — " + gpu_unset_value_message;
  cases[2].message = unsteady_message;  // the CPU backend's guess
  cases[3].message = "12 of 40 elements are wrong";
  // Another step, where both runs got the same garbage: no guess, a wrong answer; its first
  // visible one is told what the compiler warns.
  cases[4].step = cases[5].step = "tiled";
  cases[4].visibility = Visibility::hidden;
  cases[4].message = "hidden: 1 of 1 elements is wrong";
  cases[5].message = "1 of 1 elements is wrong";
  CHECK(guesses_unset_read(cases[0]));
  CHECK_FALSE(guesses_unset_read(cases[3]));

  CHECK(explain_by_unset_reads(cases, {}) == 0);  // nothing warned: every guess stands
  CHECK(cases[2].message == unsteady_message);

  const std::vector<Diagnostic> reads = {
      Diagnostic{"matmul.cu", 13, 7, "warning", "'Pvalue' may be used uninitialized"}};
  const std::string said = unset_reads_sentence(reads);
  CHECK(explain_by_unset_reads(cases, reads) == 4);
  CHECK(cases[0].message == "3 of 9 elements are wrong — " + said);
  CHECK(cases[1].message == said);
  CHECK(cases[2].message == said);
  CHECK(cases[3].message == "12 of 40 elements are wrong");  // its step is told already
  CHECK(cases[4].message == "hidden: 1 of 1 elements is wrong");
  CHECK(cases[5].message == "1 of 1 elements is wrong — the compiler warns: `Pvalue` is used uninitialised, read "
                            "before it is set (the read is at matmul.cu:13)");
  for (const CaseResult& c : cases) {
    CHECK(c.message.find("race") == std::string::npos);
    CHECK(c.outcome == Outcome::wrong_answer);  // the change itself stands
  }
}

TEST_CASE("unset_reads::explain_by_unset_reads takes back the sanitizer's disagreement too") {
  // matmul/naive_accumulator_uninitialised on an H200: the case was right under memcheck and wrong
  // without it, told "which a race does" beside the unset accumulator.
  CaseResult c;
  c.step = "naive";
  c.outcome = Outcome::wrong_answer;
  c.message = gpu_global_race_message;
  REQUIRE(note_sanitized_disagreement(c, true, "memcheck"));
  const std::vector<Diagnostic> reads = {
      Diagnostic{"matmul.cu", 12, 7, "warning", "'Pvalue' may be used uninitialized"}};
  std::vector<CaseResult> cases{c};
  CHECK(explain_by_unset_reads(cases, reads) == 1);
  CHECK(cases[0].message == unset_reads_sentence(reads));
  CHECK(cases[0].message.find("race") == std::string::npos);
}

TEST_CASE("unset_reads::name_unset_reads on the CUDA backend compiles the files for the CPU backend") {
  // The buggy corpus's unset accumulator, as a GPU check leaves it: a guess in one case. No GPU
  // is needed: the compile is g++'s, sealed, against the CPU runner library of this build.
  const fs::path data = CUGRADE_TEST_DATA;
  auto spec = load_spec(data / ".." / ".." / ".." / "assignments" / "matmul" / "assignment.yaml");
  REQUIRE(spec.has_value());
  const auto processes = make_process_runner();
  const CheckContext context{*processes, default_locations()};
  REQUIRE(fs::exists(context.locations.cpu_runner_library("matmul")));
  CheckOptions options;
  options.submission = {data / ".." / "cpu" / "data" / "buggy" / "matmul" / "naive_accumulator_uninitialised.cu"};
  BuiltSubmission built;
  built.use_cuda = true;
  built.work_dir = make_work_dir({}, "cugrade-unset-test-");
  GradeReport report;
  report.cases.resize(2);
  report.cases[0].step = "naive";
  report.cases[0].outcome = Outcome::wrong_answer;
  report.cases[0].message = gpu_global_race_message;
  report.cases[1].step = "naive";
  report.cases[1].outcome = Outcome::passed;

  name_unset_reads(context, *spec, options, built, report);
  CHECK(report.cases[0].message.starts_with("results change between runs of the same inputs: `Pvalue` is used "
                                            "uninitialised, read before it is set (the read is at "
                                            "naive_accumulator_uninitialised.cu:13)"));
  CHECK(report.cases[1].message.empty());
  CHECK(fs::exists(built.work_dir / "unset-reads"));  // its own folder: the GPU build's stays as it was

  // A wrong answer without a guess (both runs got the same garbage) is told what the compiler warns.
  report.cases[0].message = "3 of 9 elements are wrong";
  const BuiltSubmission again{.use_cuda = true, .work_dir = built.work_dir / "again"};
  name_unset_reads(context, *spec, options, again, report);
  CHECK(report.cases[0].message ==
        "3 of 9 elements are wrong — the compiler warns: `Pvalue` is used uninitialised, read before it is set (the "
        "read is at naive_accumulator_uninitialised.cu:13)");

  // Every case passed: a GPU check compiles nothing more.
  report.cases[0] = report.cases[1];
  const BuiltSubmission passed{.use_cuda = true, .work_dir = built.work_dir / "none"};
  name_unset_reads(context, *spec, options, passed, report);
  CHECK_FALSE(fs::exists(passed.work_dir));
  fs::remove_all(built.work_dir);
}
