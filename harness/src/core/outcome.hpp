#pragma once
// The one enum that says everything a submission (or one case of it) can do (design.md §5).
#include <optional>
#include <string>
#include <string_view>

namespace cugrade {

/// What happened to a submission or to one of its cases.
enum class Outcome {
  passed,            ///< ran and produced correct results
  wrong_answer,      ///< ran, but results differ from the gold beyond tolerance
  compile_error,     ///< nvcc (or the CPU backend's compiler) rejected the student's file
  link_error,        ///< an entry point from interface.cuh is missing or defined twice
  forbidden_symbol,  ///< the student's object defines a symbol the harness reserves
  timeout,           ///< exceeded the build or run time limit; the process group was killed
  crashed,           ///< the runner died from a signal or exited without finishing the case
  cuda_error,        ///< a CUDA call or kernel launch failed
  output_limit,      ///< the runner flooded stdout/stderr past the cap
  protocol_error,    ///< the runner's output files were missing or malformed
  not_run,           ///< not attempted (an earlier stage failed, or no GPU to run on)
  harness_error,     ///< a fault of cugrade itself; never costs the student points
};

/// The snake_case name used in every report ("wrong_answer").
std::string_view to_string(Outcome outcome);

/// Parses a snake_case name; nullopt for an unknown one.
std::optional<Outcome> outcome_from_string(std::string_view name);

/// True when the outcome is the student's responsibility (a score of 0 for the affected part);
/// false for harness_error and not_run, which never cost the student points.
bool is_student_outcome(Outcome outcome);

/// True when a submission with this build outcome cannot be graded at all ("not gradable").
bool is_ungradable(Outcome outcome);

}  // namespace cugrade
