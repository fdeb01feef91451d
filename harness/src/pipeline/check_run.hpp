#pragma once
// What the stages of one check's run share (check_stages.hpp, timing_stage.hpp): the check's
// collaborators and options, its plan, the student's and the reference's runners, and the report
// and the clock every stage writes to.
#include <filesystem>

#include "pipeline/case_plan.hpp"
#include "pipeline/check_submission.hpp"
#include "run/run_job.hpp"

namespace cugrade {

/// One check between its build and its scoring, as every stage of its run sees it.
struct CheckRun {
  const CheckContext& context;
  const Spec& spec;
  const CheckOptions& options;
  const CasePlan& plan;                     ///< its cases' inputs, gold and jobs
  const DeviceInfo& device;                 ///< the GPU it runs on (none on the CPU backend)
  bool use_cuda;                            ///< the CUDA backend; false: the CPU backend
  bool timed;                               ///< performance is measured (CUDA, not --no-performance)
  RunRequest run;                           ///< how the student's runner runs the cases
  std::filesystem::path reference_runner;  ///< the reference's runner of this backend
  GradeReport& report;                      ///< the cases judged into it; the stages' notes
  StageSeconds& spent;                      ///< each stage adds its time
};

}  // namespace cugrade
