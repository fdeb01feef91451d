#include "pipeline/unset_reads.hpp"

#include <doctest/doctest.h>

#include "pipeline/schedule_race.hpp"

using namespace cugrade;

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
