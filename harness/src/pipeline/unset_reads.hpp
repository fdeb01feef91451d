#pragma once
// A variable read before it is set, named by the compiler. When a case's results change between
// runs of the same inputs, the race check can only guess why: a race, or a value read before it
// is set. On the GPU an unset register starts as whatever ran before left in it, so two runs
// cannot tell an unset accumulator (`float sum;` then `sum += ...`) from lost updates. The host
// compiler can: the CPU backend's compile of the same files with -Wuninitialized and
// -Wmaybe-uninitialized (or nvcc's own warning #549) names the variable and the line, and that
// name replaces the guess on either backend.
#include <string>
#include <vector>

#include "pipeline/check_submission.hpp"
#include "report/grade_report.hpp"

namespace cugrade {

/// The warnings of `diagnostics` that say a variable may be read before it is set: g++'s
/// "'sum' is used uninitialized" and "'sum' may be used uninitialized", nvcc's
/// `variable "sum" is used before its value is set`.
std::vector<Diagnostic> unset_reads_in(const std::vector<Diagnostic>& diagnostics);

/// The variable a warning of unset_reads_in names ("sum"); empty when it names none.
std::string unset_variable(const Diagnostic& warning);

/// "`sum` is used uninitialised, read before it is set (the read is at matmul.cu:12): give it a value before its
/// first use (`= 0` where it is declared, for a sum)": one clause per variable, in the order warned.
std::string unset_reads_sentence(const std::vector<Diagnostic>& reads);

/// Whether a case's message holds a guess why its results changed between runs that a variable
/// read before it is set may explain (schedule_race.hpp's unsteady and GPU sentences).
bool guesses_unset_read(const CaseResult& result);

/// Replaces, in every case of `cases`, each such guess by what `reads` name (the results change
/// between runs, and why). Returns how many cases changed; none where `reads` is empty.
std::size_t explain_changes_by_unset_reads(std::vector<CaseResult>& cases, const std::vector<Diagnostic>& reads);

/// Where a case of `report` guesses as above: compiles the submission's files for the CPU backend
/// with the warnings on (a folder under `work_dir`; the CPU backend's sealed build), and names
/// what they find in those cases. Costs one compile, only for such a submission.
void name_unset_reads(const CheckContext& context, const Spec& spec, const CheckOptions& options,
                      const std::filesystem::path& work_dir, GradeReport& report);

}  // namespace cugrade
