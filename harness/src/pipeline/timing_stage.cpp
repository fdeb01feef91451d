#include "pipeline/timing_stage.hpp"

#include <chrono>

#include "pipeline/run_requests.hpp"
#include "pipeline/stage_progress.hpp"
#include "pipeline/timed_steps.hpp"
#include "process/cpu_affinity.hpp"
#include "process/step_folder.hpp"
#include "start_gate.hpp"

namespace cugrade {

TimingStage::TimingStage(const CheckRun& check) : check_(check), timing_run_(timing_run_request(check.run, check.plan)) {}

TimingStage::~TimingStage() = default;  // a std::async future waits for its task: gate_ before early_

RunRequest TimingStage::start_beside(RunRequest cases) {
  const auto& timings = check_.plan.job.timings;
  if (!check_.timed || !timing_ahead() || check_.context.gpu_turns || timings.empty() ||
      !baselines_kept(check_.context.baselines.get(), timing_run_, timings, check_.reference_runner))
    return cases;
  const PinnedThread pinned(check_timing_cpus(check_.options));  // the runners inherit it
  early_ = start_early_runners(check_.context.processes, timing_run_, timings, check_.reference_runner,
                               check_.plan.layout.reference_timing);
  cases.start_gate = cases.work_dir / "start-gate";
  gate_ = std::async(std::launch::async, [this, file = cases.start_gate] {
    early_.await_up(start_gate_most_s / 2);  // opened whatever happened: a failed runner starts again later
    create_empty_file(file);  // the cases' runner is alive: never through a link it made there
  });
  return cases;
}

void TimingStage::cases_ended() {
  if (gate_.valid()) gate_.get();
}

void TimingStage::load_first_passing() {
  count_passing();
  if (!passing_.empty()) early_.load(passing_.front());
}

void TimingStage::count_passing() { passing_ = passing_step_tasks(check_.plan.job.timings, check_.report.cases); }

std::vector<TimingOutcome> TimingStage::time_passing() {
  const auto started = std::chrono::steady_clock::now();
  std::vector<TimingOutcome> timed;
  {
    const PinnedThread pinned(check_timing_cpus(check_.options));  // the lock-step loop, and runners it starts
    timed = time_passing_steps(check_.context.processes, timing_run_, check_.plan.job.timings, check_.report.cases,
                               check_.reference_runner, check_.plan.layout.reference_timing,
                               check_.context.baselines.get(), &early_);
  }
  check_.spent.timing = seconds_since(started);
  for (const std::string& line : describe_timings(check_.plan.job.timings, timed)) say(check_.options, line);
  return timed;
}

}  // namespace cugrade
