// Guesses why results changed, taken back where compute-sanitizer found the cause in the step
// (pipeline/change_explanations.hpp). The messages are those the GPU's buggy corpus showed.
#include "pipeline/change_explanations.hpp"

#include <doctest/doctest.h>

#include "pipeline/schedule_race.hpp"

using namespace cugrade;

namespace {

CaseResult case_of(const std::string& step, Outcome outcome, std::string message) {
  CaseResult c;
  c.step = step;
  c.outcome = outcome;
  c.message = std::move(message);
  return c;
}

/// What mark_uninitialised_shared writes, its declarations included.
std::string uninitialised_shared_sentence() {
  CaseResult c = case_of("s", Outcome::passed, "");
  mark_uninitialised_shared(c, " (__shared__ tile in mtran_padded, padded.cu:40)");
  return c.message;
}

const std::string out_of_bounds = "out-of-bounds global memory write of 4 bytes in kernel mtran_padded — found by "
                                  "compute-sanitizer memcheck";
const std::string shared_race = "a race on __shared__ memory in kernel Acceleration_Shared — a missing "
                                "__syncthreads()? Found by compute-sanitizer racecheck";

}  // namespace

TEST_CASE("change_explanations::an access outside the arrays") {
  // matmul/naive_no_bounds_check on an H200: a read past A's end made the results change between
  // runs, told "threads race" before memcheck named the read.
  std::vector<CaseResult> cases{
      case_of("naive", Outcome::cuda_error, out_of_bounds + " — " + gpu_global_race_message),
      case_of("naive", Outcome::wrong_answer, std::string(gpu_unsteady_message) + " — " + gpu_unset_value_message),
      case_of("tiled", Outcome::wrong_answer, gpu_global_race_message),  // no bad access in this step
      case_of("naive", Outcome::wrong_answer, "12 of 40 elements are wrong"),
      // transpose/padded_store_unguarded: the unguarded store writes tile elements no thread loaded.
      case_of("naive", Outcome::cuda_error, out_of_bounds + " — " + uninitialised_shared_sentence())};
  CHECK(explain_changes_by_findings(cases, {.bad_access = {"naive"}}) == 3);
  CHECK(cases[0].message == out_of_bounds + " — " + gpu_changed_by_bad_access_message);
  CHECK(cases[1].message == gpu_changed_by_bad_access_message);
  CHECK(cases[1].outcome == Outcome::wrong_answer);  // the change itself stands
  CHECK(cases[2].message == gpu_global_race_message);
  CHECK(cases[3].message == "12 of 40 elements are wrong");
  CHECK(cases[4].message == out_of_bounds + " — " + gpu_shared_start_by_bad_access_message);
  for (const CaseResult& c : cases)
    if (c.step == "naive") {
      CHECK(c.message.find("race") == std::string::npos);
      CHECK(c.message.find(uninitialised_shared_message) == std::string::npos);
    }
}

TEST_CASE("change_explanations::a race on shared memory") {
  // nbody/shared_no_second_sync on an H200: racecheck found the race, and a larger case was also
  // told "reads uninitialised __shared__ memory", another "threads race (e.g. …)".
  std::vector<CaseResult> cases{
      case_of("accel_shared", Outcome::wrong_answer, uninitialised_shared_sentence() + " — " + shared_race),
      case_of("accel_shared", Outcome::wrong_answer, std::string(gpu_unsteady_message) + " — " + shared_race),
      case_of("position", Outcome::wrong_answer, uninitialised_shared_sentence())};
  // An access outside the arrays in the same step would come first: here there is none.
  CHECK(explain_changes_by_findings(cases, {.bad_access = {"position_other"}, .shared_race = {"accel_shared"}}) == 2);
  CHECK(cases[0].message == std::string(gpu_shared_start_by_shared_race_message) + " — " + shared_race);
  CHECK(cases[1].message == std::string(gpu_changed_by_shared_race_message) + " — " + shared_race);
  CHECK(cases[2].message == uninitialised_shared_sentence());  // no finding in its step: the guess stands
}

TEST_CASE("change_explanations::a step racecheck found no race in") {
  // reduction/block_sums_not_atomic on an H200: blocks add their sums into *out with +=; the
  // kernels use shared memory, so the guess named a missing __syncthreads() first.
  // Lost updates can also make two runs whose shared memory started otherwise differ, and a third
  // agree with the first by chance: "reads uninitialised __shared__ memory" at n=1000.
  std::vector<CaseResult> cases{case_of("reduce1", Outcome::wrong_answer, gpu_unsteady_message),
                                case_of("reduce2", Outcome::wrong_answer, gpu_unsteady_message),
                                case_of("reduce1", Outcome::wrong_answer, uninitialised_shared_sentence()),
                                case_of("tiled", Outcome::wrong_answer, uninitialised_shared_sentence())};
  CHECK(explain_changes_by_findings(cases, {.race_free = {"reduce1", "tiled"}}) == 2);
  CHECK(cases[0].message == gpu_global_race_after_racecheck_message);
  CHECK(cases[0].message.find("__syncthreads") == std::string::npos);
  CHECK(cases[0].message.find("atomicAdd") != std::string::npos);
  CHECK(cases[1].message == gpu_unsteady_message);
  CHECK(cases[2].message == gpu_shared_start_in_global_race_message);
  CHECK(cases[2].message.find(uninitialised_shared_message) == std::string::npos);
  // A step racecheck found race-free whose cases changed only with shared memory's start
  // (matmul/tiled_no_zero_fill): the guess stands.
  CHECK(cases[3].message == uninitialised_shared_sentence());
  CHECK(says_results_change_between_runs(cases[0].message));
}

TEST_CASE("change_explanations::nothing found") {
  std::vector<CaseResult> cases{case_of("naive", Outcome::wrong_answer, gpu_unsteady_message)};
  CHECK(explain_changes_by_findings(cases, {}) == 0);
  CHECK(cases[0].message == gpu_unsteady_message);
}
