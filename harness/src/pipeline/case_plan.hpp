#pragma once
// Turns expanded cases and performance targets into the runner's job plus everything the harness
// keeps to itself: the inputs as written (to detect modified const inputs) and the gold.
#include <filesystem>
#include <vector>

#include "graders/grader.hpp"
#include "job.hpp"
#include "pipeline/case_materials.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// One case as planned: what the runner gets, and what stays in the harness.
struct PlannedCase {
  Case spec_case;
  std::shared_ptr<const CaseMaterial> material;  ///< shared with every check of the same case
  /// The inputs as written to the runner's input file.
  const ArraySet& inputs() const { return material->inputs; }
  /// The expected outputs; never leave this process.
  const ArraySet& gold() const { return material->gold; }
};

/// One performance target as planned.
struct PlannedTiming {
  PerformanceTarget target;
  Work work;
};

/// Where a check keeps its files, each folder with one writer (design.md §4): the harness writes
/// `inputs` (the runners only read it), the student's runners write only `run`, the reference
/// runner only `reference`; the two timing runners, which may start while others still work,
/// have folders of their own (a sealed runner's folder is handed to a user of its own). The
/// build has the work folder's top level.
struct WorkLayout {
  std::filesystem::path inputs;
  std::filesystem::path run;
  std::filesystem::path reference;
  std::filesystem::path timing;            ///< the student's timing runner
  std::filesystem::path reference_timing;  ///< the reference's timing runner
};

/// The layout under `work_dir` (the folders are created).
WorkLayout work_layout(const std::filesystem::path& work_dir);

/// The job and the harness's private half of it.
struct CasePlan {
  WorkLayout layout;
  Job job;
  std::vector<PlannedCase> cases;
  std::vector<PlannedTiming> timings;
};

/// The cases a check grades: those of students' steps, plus (when `reference_only_steps`, as
/// the self-test's reference entry asks) those of reference-only steps; order kept.
std::vector<Case> graded_cases(const Spec& spec, std::vector<Case> cases, bool reference_only_steps);

/// Generates inputs (seeded), writes them under `work_dir` (work_layout), computes the gold in
/// double precision and builds the job. With `materials`, inputs and gold come from (or go into)
/// that cache, shared with the other checks of a batch; without, they are made for this check. Task ids are neutral ("case-3"): nothing in the job tells
/// a hidden case from a visible one. Timing inputs use fixed seeds derived from the assignment and step, and a
/// second input set for the verification calls after timing. A case of a reference-only step
/// asks the runner to call the reference's function (CheckTask::reference): it has no other.
CasePlan plan_cases(const Spec& spec, const Grader& grader, const std::vector<Case>& cases,
                    const std::vector<PerformanceTarget>& timings, const std::filesystem::path& work_dir,
                    CaseMaterials* materials = nullptr);

}  // namespace cugrade
