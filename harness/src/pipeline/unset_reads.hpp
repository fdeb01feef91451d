#pragma once
// A variable read before it is set, named by the compiler. When a case's results change between
// runs of the same inputs, the race check can only guess why: a race, or a value read before it
// is set. On the GPU an unset register starts as whatever ran before left in it, so two runs
// cannot tell an unset accumulator (`float sum;` then `sum += ...`) from lost updates, and where
// both runs got the same garbage nothing changes between them at all. The host compiler can tell:
// the CPU backend's compile warns of such reads (build/unset_read_warnings.hpp), and its warning
// replaces the guess, or, in a step with a wrong answer and no guess, is added to it.
#include <filesystem>
#include <string>
#include <vector>

#include "pipeline/check_submission.hpp"
#include "report/grade_report.hpp"

namespace cugrade {

/// "`sum` is used uninitialised, read before it is set (the read is at matmul.cu:12)": one
/// clause per variable, at its first warned read, "; " between; empty when `reads` names none.
std::string unset_reads_clauses(const std::vector<Diagnostic>& reads);

/// What replaces a guess: the results change between runs, the clauses, and what to do.
std::string unset_reads_sentence(const std::vector<Diagnostic>& reads);

/// Whether a case's message holds a guess why its results changed between runs that a variable
/// read before it is set may explain (schedule_race.hpp's unsteady and GPU sentences).
bool guesses_unset_read(const CaseResult& result);

/// Replaces, in every case of `cases`, each such guess by unset_reads_sentence(reads); in a step
/// with a wrong answer and no guess, its first wrong answer gets "the compiler warns: " and the
/// clauses. Returns how many cases changed; none where `reads` is empty.
std::size_t explain_by_unset_reads(std::vector<CaseResult>& cases, const std::vector<Diagnostic>& reads);

/// explain_by_unset_reads over `report`'s cases: with the CPU backend's warnings from its build
/// (`built`); on the CUDA backend, where a case guesses or has a wrong answer and the CPU backend
/// is installed, from one more compile for the CPU backend (the sealed build, in a folder under
/// the work folder), made only for such a submission.
void name_unset_reads(const CheckContext& context, const Spec& spec, const CheckOptions& options,
                      const BuiltSubmission& built, GradeReport& report);

}  // namespace cugrade
