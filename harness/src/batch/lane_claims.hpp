#pragma once
// A batch's GPU lanes claimed against other cugrade processes (device/gpu_claim.hpp), one
// submission's run (or the baselines) at a time: the first wait of each lane, and a claim that
// failed, said once in the batch's log; the seconds waited summed for the summary.
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "device/device_info.hpp"
#include "device/gpu_claim.hpp"

namespace cugrade {

class LaneClaims {
 public:
  /// The lanes named as CUDA_VISIBLE_DEVICES names them (`lanes`, lane i being `device`'s GPU i);
  /// `log` tells the batch's log (it may be called from several lanes at once).
  LaneClaims(std::optional<DeviceInfo> device, std::vector<std::string> lanes,
             std::function<void(const std::string&)> log);

  /// `lane`'s GPU claimed, waiting for another cugrade where one holds it; nothing where there is
  /// no such lane or GPU, or where no claim could be made (said once).
  std::optional<GpuClaim> claim(std::size_t lane);

  /// Seconds all lanes have waited for another cugrade so far.
  double waited_s();

 private:
  /// `line` in the log, unless `lane` has had a line already.
  void say_once(std::size_t lane, const std::string& line);

  std::optional<DeviceInfo> device_;
  std::vector<std::string> lanes_;
  std::function<void(const std::string&)> log_;
  std::mutex mutex_;
  std::set<std::size_t> told_;  ///< lanes whose wait or failed claim the log has said
  double waited_s_ = 0.0;
};

}  // namespace cugrade
