#pragma once
// A batch's GPU lanes. One lane per GPU runs one submission at a time; with `runs_per_gpu` above
// 1, several lanes share each GPU and take turns (pipeline/gpu_turns.hpp): up to that many
// submissions' cases and sanitizer passes side by side, each timing and profile with the GPU alone,
// and every case that did not pass beside others run again alone (pipeline/alone_rerun.hpp). Each
// GPU is claimed against other cugrade processes (device/gpu_claim.hpp) while any of its lanes runs
// a submission (or takes the baselines): the first wait of each GPU, and a claim that failed, said
// once in the batch's log; the seconds waited summed for the summary.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "device/device_info.hpp"
#include "device/gpu_claim.hpp"
#include "pipeline/gpu_turns.hpp"

namespace cugrade {

/// A GPU held for one lane's work; null where nothing was claimed. The GPU stays claimed while
/// any lane of it holds one.
using LaneClaim = std::shared_ptr<const GpuClaim>;

/// The GPU memory one runner is counted for beside its limit: its CUDA context, and under
/// compute-sanitizer the tool's own (on an H200 a sanitized runner's context took 0.5-0.9 GiB).
inline constexpr std::uint64_t runner_context_bytes = std::uint64_t{1} << 30;

/// Runners of one submission that may hold GPU memory at once: its sanitizer's tools side by side
/// (memcheck, racecheck, initcheck, synccheck; pipeline/sanitizer_pass.hpp).
inline constexpr std::uint64_t runners_per_submission = 4;

/// Submissions side by side on one GPU by default for `cugrade grade`: as many as the self-test
/// takes on `cores` cores (default_runs_per_gpu), and no more than the GPU's memory
/// (`gpu_memory_bytes`; 0: unknown, no bound) holds at `runner_limit_bytes` (limits.gpu_memory_mb)
/// plus runner_context_bytes for each of runners_per_submission runners of each; at least 1.
std::size_t default_grade_runs_per_gpu(std::size_t cores, std::uint64_t gpu_memory_bytes,
                                       std::uint64_t runner_limit_bytes);

/// Lanes per GPU for `runs_per_gpu` sharing it: twice as many, so that while the turns alone of
/// some are gathered the others' builds wait ready to share (1: one lane, no turns).
std::size_t lanes_per_gpu(std::size_t runs_per_gpu);

class LaneClaims {
 public:
  /// The GPUs named as CUDA_VISIBLE_DEVICES names them (`gpus`, GPU i being `device`'s GPU i), each
  /// with lanes_per_gpu(`runs_per_gpu`) lanes (lane l on GPU l / lanes_per_gpu); `log` tells the
  /// batch's log (it may be called from several lanes at once).
  LaneClaims(std::optional<DeviceInfo> device, std::vector<std::string> gpus,
             std::function<void(const std::string&)> log, std::size_t runs_per_gpu = 1);

  /// Lanes in all.
  std::size_t lanes() const { return gpus_.size() * per_gpu_; }
  /// The GPU (an index into `gpus`) lane `lane` runs on.
  std::size_t gpu_of(std::size_t lane) const { return lane / per_gpu_; }
  /// The turns of the lanes of `lane`'s GPU; null where a GPU has one lane (nothing to share).
  std::shared_ptr<GpuTurns> turns_of(std::size_t lane) const;

  /// GPU `gpu` claimed, waiting for another cugrade where one holds it (its lanes wait together);
  /// null where there is no such GPU, or where no claim could be made (said once).
  LaneClaim claim_gpu(std::size_t gpu);
  /// The GPU of `lane` claimed (claim_gpu).
  LaneClaim claim(std::size_t lane) { return claim_gpu(gpu_of(lane)); }

  /// Seconds all GPUs have waited for another cugrade so far.
  double waited_s();
  /// Where the shared GPUs' time went so far (GpuTurns::times, summed); zeros where none is shared.
  GpuTurnTimes turn_times() const;

 private:
  /// `line` in the log, unless `gpu` has had a line already.
  void say_once(std::size_t gpu, const std::string& line);

  std::optional<DeviceInfo> device_;
  std::vector<std::string> gpus_;
  std::function<void(const std::string&)> log_;
  std::size_t per_gpu_ = 1;
  std::vector<std::shared_ptr<GpuTurns>> turns_;  ///< per GPU; null with one lane each
  std::mutex mutex_;
  /// Per GPU: held while a lane waits for its claim, so that its other lanes wait with it.
  std::vector<std::unique_ptr<std::mutex>> claiming_;
  std::vector<std::weak_ptr<const GpuClaim>> held_;  ///< per GPU: its claim while a lane holds it
  std::set<std::size_t> told_;  ///< GPUs whose wait or failed claim the log has said
  double waited_s_ = 0.0;
};

}  // namespace cugrade
