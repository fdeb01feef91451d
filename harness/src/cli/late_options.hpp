#pragma once
// `cugrade grade --late-policy ... --extensions FILE`: read and checked before anything is graded,
// for a local grade, `--collect` and `--slurm` alike.
#include <cstdint>
#include <optional>

#include "batch/late_plan.hpp"
#include "cli/grade_args.hpp"
#include "core/result.hpp"

namespace cugrade {

/// The late plan `args` ask for: none without --late-policy and --extensions; an error when
/// either is given without --deadline (`deadline_unix`), when the policy is malformed, or when the
/// extensions file is unreadable, malformed, or names a student with no submission in the class.
Result<std::optional<LatePlan>> late_plan_of(const GradeArgs& args, std::optional<std::int64_t> deadline_unix);

/// The words that give a collect the same plan: --late-policy P and --extensions FILE (absolute).
std::vector<std::string> late_words(const GradeArgs& args);

}  // namespace cugrade
