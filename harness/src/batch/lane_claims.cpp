#include "batch/lane_claims.hpp"

#include <algorithm>
#include <utility>

#include "pipeline/selftest.hpp"

namespace cugrade {

std::size_t default_grade_runs_per_gpu(std::size_t cores, std::uint64_t gpu_memory_bytes,
                                       std::uint64_t runner_limit_bytes) {
  std::size_t runs = default_runs_per_gpu(cores);
  if (gpu_memory_bytes > 0) {
    const std::uint64_t one = runners_per_submission * (runner_limit_bytes + runner_context_bytes);
    runs = std::min<std::size_t>(runs, static_cast<std::size_t>(gpu_memory_bytes / std::max<std::uint64_t>(1, one)));
  }
  return std::max<std::size_t>(1, runs);
}

std::size_t lanes_per_gpu(std::size_t runs_per_gpu) { return runs_per_gpu <= 1 ? 1 : 2 * runs_per_gpu; }

LaneClaims::LaneClaims(std::optional<DeviceInfo> device, std::vector<std::string> gpus,
                       std::function<void(const std::string&)> log, std::size_t runs_per_gpu)
    : device_(std::move(device)), gpus_(std::move(gpus)), log_(std::move(log)), per_gpu_(lanes_per_gpu(runs_per_gpu)) {
  for (std::size_t g = 0; g < gpus_.size(); ++g) {
    // Turns alone gathered as many at a time as share: each gathering empties the GPU once (a
    // wait for the longest shared turn) for that many timings.
    turns_.push_back(per_gpu_ > 1 ? std::make_shared<GpuTurns>(runs_per_gpu, runs_per_gpu) : nullptr);
    claiming_.push_back(std::make_unique<std::mutex>());
    held_.emplace_back();
  }
}

GpuTurnTimes LaneClaims::turn_times() const {
  GpuTurnTimes sum;
  for (const auto& turns : turns_)
    if (turns) sum = sum + turns->times();
  return sum;
}

std::shared_ptr<GpuTurns> LaneClaims::turns_of(std::size_t lane) const {
  const std::size_t gpu = gpu_of(lane);
  return gpu < turns_.size() ? turns_[gpu] : nullptr;
}

void LaneClaims::say_once(std::size_t gpu, const std::string& line) {
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    first = told_.insert(gpu).second;
  }
  if (first && log_) log_(line);
}

LaneClaim LaneClaims::claim_gpu(std::size_t gpu) {
  if (gpu >= gpus_.size() || !device_ || !device_->present()) return nullptr;
  // One claim per GPU, however many of its lanes run: a second lock of the same file from this
  // process would wait for the first (flock locks an open file, not a process).
  std::lock_guard claiming(*claiming_[gpu]);
  {
    std::lock_guard lock(mutex_);
    if (LaneClaim held = held_[gpu].lock()) return held;
  }
  auto claim = cugrade::claim_gpu(
      *device_, gpu, gpus_[gpu],
      [&](const std::string& waiting) {
        say_once(gpu, waiting + (per_gpu_ > 1 ? " (this batch takes turns with it whenever none of its submissions runs "
                                                "on that GPU)"
                                              : " (this batch takes turns with it, one submission at a time)"));
      },
      false);  // the seconds waited go to the summary, not a line per submission
  if (!claim) {
    say_once(gpu, unclaimed_gpu_note(claim.error().message));
    return nullptr;
  }
  std::lock_guard lock(mutex_);
  waited_s_ += claim->waited_s();
  LaneClaim held = std::make_shared<const GpuClaim>(std::move(*claim));
  held_[gpu] = held;
  return held;
}

double LaneClaims::waited_s() {
  std::lock_guard lock(mutex_);
  return waited_s_;
}

}  // namespace cugrade
