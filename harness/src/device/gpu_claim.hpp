#pragma once
// One GPU, one cugrade at a time: a claim every cugrade process on the machine takes before it
// uses a GPU (a check's cases, sanitizer and timing; a batch's run of one submission; a
// self-test, a bench, a calibration), so that two students' checks on a lab machine, or two TAs'
// batches on one server, take turns instead of timing each other's kernels (a compute-sanitizer
// process beside a timing made the reference half its own speed, docs/measurements.md) or
// starting contexts that clear the shared memory a runner poisoned. The claim is a lock file per
// GPU (flock: released by the kernel when a process dies, however it dies), and a second one that
// queues the waiters, so that one who waits gets the GPU before the holder takes it again.
#include <filesystem>
#include <cstddef>
#include <functional>
#include <string>

#include "core/result.hpp"
#include "device/device_info.hpp"

namespace cugrade {

/// The folder the claims' lock files live in: $CUGRADE_LOCK_DIR when set, else /tmp (every
/// user's: a TA and a student on one machine claim the same GPU).
std::filesystem::path gpu_claim_folder();

/// What names the GPU that CUDA calls `index` in this process, the same in every process whatever
/// its CUDA_VISIBLE_DEVICES: its UUID from the probe, else `lane` (how the lane names it:
/// "0", "GPU-8f3a...") prefixed "device-".
std::string gpu_claim_key(const DeviceInfo& device, std::size_t index, const std::string& lane);

/// A GPU held against every other cugrade process until destroyed (or moved from).
class GpuClaim {
 public:
  /// Waits until no other process holds `key`'s claim (and those who waited before it have had
  /// their turn), then holds it. `waiting`, when given, is called once, before the wait, where
  /// another process holds it. `give_up`, when given, is asked every 20 ms of a wait: once it says
  /// yes, the wait ends with a claim that holds nothing (held() false). An error where the lock
  /// files cannot be opened (a folder that is not writable, a link planted in the way): the
  /// caller goes on unclaimed and says so.
  static Result<GpuClaim> acquire(const std::string& key, const std::function<void()>& waiting = {},
                                  const std::filesystem::path& folder = gpu_claim_folder(),
                                  const std::function<bool()>& give_up = {});

  GpuClaim(GpuClaim&& other) noexcept;
  GpuClaim& operator=(GpuClaim&& other) noexcept;
  GpuClaim(const GpuClaim&) = delete;
  GpuClaim& operator=(const GpuClaim&) = delete;
  ~GpuClaim();

  /// Seconds it waited for another process.
  double waited_s() const { return waited_s_; }
  /// Whether it holds the GPU (false: its wait was given up, or it was moved from).
  bool held() const { return fd_ >= 0; }

 private:
  explicit GpuClaim(int fd, double waited_s) : fd_(fd), waited_s_(waited_s) {}
  int fd_ = -1;  ///< the GPU's lock file, locked
  double waited_s_ = 0.0;
};

/// Whether another process holds `key`'s claim now (false where none ever made its lock file);
/// an error where the lock file cannot be opened. Looks without waiting and without making files.
Result<bool> gpu_claimed_elsewhere(const std::string& key, const std::filesystem::path& folder = gpu_claim_folder());

/// Who holds `key`'s claim now, as /proc/locks and the holder's command line tell it ("pid 1234:
/// cugrade grade matmul -S class"); "" where no one does or it cannot be told.
std::string gpu_claim_holder(const std::string& key, const std::filesystem::path& folder = gpu_claim_folder());

/// The lock file of `key`'s claim in `folder`.
std::filesystem::path gpu_claim_file(const std::string& key, const std::filesystem::path& folder = gpu_claim_folder());

/// Claims GPU `index` of this process for the caller (`lane`: how CUDA_VISIBLE_DEVICES names it),
/// saying through `say` (when given) that it waits for another cugrade ("GPU 0 (NVIDIA H200) is in
/// use by another cugrade on this machine (pid 1234: cugrade grade ...): waiting for its turn") and,
/// with `say_when_got`, how long it waited once it has the GPU ("got GPU 0 (NVIDIA H200) after
/// 12.0 s of waiting"). `give_up`, when given, can end the wait with a claim that holds nothing
/// (GpuClaim::acquire). An error where no claim could be made: the caller goes on and says so.
Result<GpuClaim> claim_gpu(const DeviceInfo& device, std::size_t index, const std::string& lane,
                           const std::function<void(const std::string&)>& say, bool say_when_got = true,
                           const std::function<bool()>& give_up = {});

/// The report's note where a check ran without its GPU claimed (`why`: claim_gpu's error).
std::string unclaimed_gpu_note(const std::string& why);

}  // namespace cugrade
