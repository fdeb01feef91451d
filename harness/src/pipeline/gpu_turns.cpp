#include "pipeline/gpu_turns.hpp"

#include <algorithm>

namespace cugrade {

GpuTurns::Turn& GpuTurns::Turn::operator=(Turn&& other) noexcept {
  if (this != &other) {
    release();
    turns_ = other.turns_;
    alone_ = other.alone_;
    other.turns_ = nullptr;
  }
  return *this;
}

void GpuTurns::Turn::release() {
  if (turns_) turns_->give_back(alone_);
  turns_ = nullptr;
}

GpuTurns::GpuTurns(std::size_t sharing_most, std::size_t gather_alone)
    : sharing_most_(std::max<std::size_t>(1, sharing_most)), gather_alone_(std::max<std::size_t>(1, gather_alone)) {}

GpuTurns::Turn GpuTurns::shared() {
  std::unique_lock lock(mutex_);
  const std::uint64_t ticket = next_ticket_++;
  changed_.wait(lock, [&] { return ticket == serving_ && !alone_ && !draining_ && sharing_ < sharing_most_; });
  ++serving_;
  ++sharing_;
  changed_.notify_all();  // the next ticket may share too
  return Turn(this, false);
}

GpuTurns::Turn GpuTurns::alone() {
  std::unique_lock lock(mutex_);
  if (++waiting_alone_ >= gather_alone_) draining_ = true;
  changed_.wait(lock, [&] { return !alone_ && sharing_ == 0; });
  --waiting_alone_;
  alone_ = true;
  return Turn(this, true);
}

void GpuTurns::share_with(std::size_t most) {
  {
    std::lock_guard lock(mutex_);
    sharing_most_ = std::max(sharing_most_, most);
  }
  changed_.notify_all();
}

std::size_t GpuTurns::sharing() const {
  std::lock_guard lock(mutex_);
  return sharing_;
}

bool GpuTurns::alone_now() const {
  std::lock_guard lock(mutex_);
  return alone_;
}

void GpuTurns::give_back(bool alone) {
  {
    std::lock_guard lock(mutex_);
    if (alone) {
      alone_ = false;
      if (waiting_alone_ == 0) draining_ = false;  // every gathered turn alone was served
    } else
      --sharing_;
  }
  changed_.notify_all();
}

}  // namespace cugrade
