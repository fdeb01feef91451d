#pragma once
// The timing stage of a check (run_submission's stage 4), with the optimisation that is its own:
// where every baseline is kept and the check has its GPU to itself, both timing runners start
// beside the cases' runner, so that their starts overlap its (start_early_runners), and load the
// first step that passed while the sanitizer's pass runs. Another process's context starting
// clears the shared memory the cases' runner poisons (lockstep_timing.hpp), so that runner waits
// at a start gate (runtime/start_gate.hpp) until both are up; they load their first step only once
// the cases have run (loading is GPU work).
#include <cstddef>
#include <future>
#include <vector>

#include "pipeline/check_run.hpp"
#include "report/grade_report.hpp"
#include "run/lockstep_timing.hpp"

namespace cugrade {

/// The timing of one check's passing steps, lock-step beside the reference's runner.
class TimingStage {
 public:
  /// The timing of `check`; starts nothing yet.
  explicit TimingStage(const CheckRun& check);
  TimingStage(const TimingStage&) = delete;
  TimingStage& operator=(const TimingStage&) = delete;
  /// Waits for the gate's opener, if it is still at work; runners left unused end here.
  ~TimingStage();

  /// `cases` (the request of the cases' runner), made to wait at a start gate behind both timing
  /// runners started now, where they may start early: a timed check, CUGRADE_TIMING_AHEAD not 0,
  /// no other lane on its GPU (an early runner would still live while another lane times), every
  /// baseline kept. Else `cases` as it was.
  RunRequest start_beside(RunRequest cases);
  /// The cases' runner has ended: waits until the gate was opened.
  void cases_ended();
  /// Counts the steps worth timing from the judged `cases` (passing_step_tasks); the runners
  /// started early load the first of them now, overlapping the sanitizer's pass.
  void load_first_passing();
  /// Counts the steps worth timing again, from the cases as they are now (after a run alone).
  void count_passing();
  /// Whether a step is to be timed (none failed a case), as last counted.
  bool any_passing() const { return !passing_.empty(); }
  /// Times the passing steps (time_passing_steps) on the check's timing CPUs, adds the seconds to
  /// the check's and says where each step's time went. One outcome per performance target.
  std::vector<TimingOutcome> time_passing();

 private:
  const CheckRun& check_;
  RunRequest timing_run_;               ///< the timing runners' request (timing_run_request)
  EarlyRunners early_;                  ///< both sides' runners, when started beside the cases
  std::future<void> gate_;              ///< opens the gate once both are up (declared after early_: ends first)
  std::vector<std::size_t> passing_;    ///< the tasks worth timing, as last counted
};

}  // namespace cugrade
