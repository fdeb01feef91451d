#pragma once
// Why a case's results changed between runs on the GPU, once compute-sanitizer has checked its
// step: the guesses made before it ran (a race, a value read before it is set, shared memory read
// before any thread wrote it; pipeline/schedule_race) give way to what it found in that step.
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// What compute-sanitizer found in one check, by step.
struct StepFindings {
  std::set<std::string> bad_access;   ///< steps where memcheck found an access outside the arrays
  std::set<std::string> shared_race;  ///< steps where racecheck found a race on __shared__ memory
  std::set<std::string> race_free;    ///< steps racecheck ran a case of to its end without a race
};

/// What a case is told instead of a guess why its results changed between runs, where
/// compute-sanitizer's memcheck found an access outside the arrays in its step.
inline constexpr const char* gpu_changed_by_bad_access_message =
    "results change between runs of the same inputs on the GPU: an access outside the arrays (compute-sanitizer "
    "memcheck found one in this step) reads or overwrites memory that nothing set";

/// What a case is told instead of "reads uninitialised __shared__ memory: …" where memcheck found
/// an access outside the arrays in its step.
inline constexpr const char* gpu_shared_start_by_bad_access_message =
    "results change when shared memory starts with other contents: an access outside the arrays (compute-sanitizer "
    "memcheck found one in this step) reads or overwrites memory that nothing set";

/// What a case is told instead of a guess why its results changed between runs, where racecheck
/// found a race on __shared__ memory in its step.
inline constexpr const char* gpu_changed_by_shared_race_message =
    "results change between runs of the same inputs on the GPU: the race on __shared__ memory that "
    "compute-sanitizer racecheck found in this step";

/// What a case is told instead of "reads uninitialised __shared__ memory: …" where racecheck found
/// a race on __shared__ memory in its step.
inline constexpr const char* gpu_shared_start_by_shared_race_message =
    "results change when shared memory starts with other contents: the race on __shared__ memory that "
    "compute-sanitizer racecheck found in this step (a thread reads an element before the thread that writes it "
    "has)";

/// What a case whose kernels use shared memory is told instead of gpu_unsteady_message where
/// racecheck checked its step and found no race on __shared__ memory: that leaves global memory.
inline constexpr const char* gpu_global_race_after_racecheck_message =
    "results change between two runs of the same inputs on the GPU (shared memory starting alike), and "
    "compute-sanitizer racecheck found no race on __shared__ memory in this step: threads or blocks most likely "
    "race on global memory (several adding to one element with += instead of atomicAdd lose updates), or a value "
    "is read before it is set";

/// What a case is told instead of "reads uninitialised __shared__ memory: …" in a step racecheck
/// found race-free where another case's results changed even between runs that started alike: a
/// race on global memory explains both, and a start of shared memory only one.
inline constexpr const char* gpu_shared_start_in_global_race_message =
    "results change when shared memory starts with other contents, and in other cases of this step even between "
    "runs that start alike; compute-sanitizer racecheck found no race on __shared__ memory in this step: threads "
    "or blocks most likely race on global memory (several adding to one element with += instead of atomicAdd lose "
    "updates)";

/// Replaces, in every case of a step with findings, the guesses why results changed (between runs,
/// or with what shared memory starts with) by what explains them there: an access outside the
/// arrays first, then a race on __shared__ memory; and, in a step racecheck found race-free, the
/// guess that names a missing __syncthreads() by a race on global memory, and there, where a case
/// changed between runs that started alike, the guess of uninitialised shared memory too. Returns
/// the cases changed.
std::size_t explain_changes_by_findings(std::vector<CaseResult>& cases, const StepFindings& found);

}  // namespace cugrade
