// The runners lock-step timing is handed ready (EarlyRunners, lockstep_timing.hpp): started
// beside the cases' runner, greeted, asked to load their first target.
#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <memory>

#include "run/lockstep_timing.hpp"
#include "run/timing_side.hpp"

namespace cugrade {
namespace fs = std::filesystem;

EarlyRunners::EarlyRunners() = default;
EarlyRunners::~EarlyRunners() {
  for (TimingSide* side : {student.get(), reference.get()})
    if (side && side->alive()) side->process->finish(0.0);
}
EarlyRunners::EarlyRunners(EarlyRunners&&) noexcept = default;
EarlyRunners& EarlyRunners::operator=(EarlyRunners&&) noexcept = default;

bool EarlyRunners::await_up(double most_s) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(most_s);
  bool both = true;
  for (TimingSide* side : {student.get(), reference.get()}) {
    if (!side || !side->alive() || side->greeted) continue;
    const double left = std::chrono::duration<double>(until - std::chrono::steady_clock::now()).count();
    const auto reply = side->process->receive(std::max(0.0, left));
    side->greeted = reply && *reply == "hello";
    if (!side->greeted) {
      side->ended = side->process->finish(0.0);
      both = false;
    }
  }
  return both;
}

void EarlyRunners::load(std::size_t first) {
  for (TimingSide* side : {student.get(), reference.get()})
    if (side && side->alive() && side->process->send("task " + std::to_string(first))) side->loading = first;
}

EarlyRunners start_early_runners(ProcessRunner& processes, const RunRequest& student,
                                 const std::vector<TimeTask>& tasks, const fs::path& reference_runner,
                                 const fs::path& reference_dir) {
  EarlyRunners early;
  if (tasks.empty()) return early;
  const auto [reference_tasks, student_tasks] = sides_tasks(tasks);
  early.student = std::make_unique<TimingSide>();
  early.reference = std::make_unique<TimingSide>();
  start_side(*early.student, processes, student, student.runner, student.work_dir, student_tasks, "timing-early");
  start_side(*early.reference, processes, student, reference_runner, reference_dir, reference_tasks, "timing-early");
  return early;
}

}  // namespace cugrade
