#include "batch/lane_claims.hpp"

#include <utility>

namespace cugrade {

LaneClaims::LaneClaims(std::optional<DeviceInfo> device, std::vector<std::string> lanes,
                       std::function<void(const std::string&)> log)
    : device_(std::move(device)), lanes_(std::move(lanes)), log_(std::move(log)) {}

void LaneClaims::say_once(std::size_t lane, const std::string& line) {
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    first = told_.insert(lane).second;
  }
  if (first && log_) log_(line);
}

std::optional<GpuClaim> LaneClaims::claim(std::size_t lane) {
  if (lane >= lanes_.size() || !device_ || !device_->present()) return std::nullopt;
  auto claim = claim_gpu(
      *device_, lane, lanes_[lane],
      [&](const std::string& waiting) {
        say_once(lane, waiting + " (this batch takes turns with it, one submission at a time)");
      },
      false);  // the seconds waited go to the summary, not a line per submission
  if (!claim) {
    say_once(lane, unclaimed_gpu_note(claim.error().message));
    return std::nullopt;
  }
  std::lock_guard lock(mutex_);
  waited_s_ += claim->waited_s();
  return std::move(*claim);
}

double LaneClaims::waited_s() {
  std::lock_guard lock(mutex_);
  return waited_s_;
}

}  // namespace cugrade
