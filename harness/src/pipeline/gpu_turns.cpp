#include "pipeline/gpu_turns.hpp"

#include <algorithm>

namespace cugrade {

GpuTurnTimes operator+(const GpuTurnTimes& a, const GpuTurnTimes& b) {
  return {a.alone + b.alone, a.shared + b.shared, a.lane_seconds + b.lane_seconds, a.winding_down + b.winding_down,
          a.idle + b.idle};
}

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
  account(Clock::now());
  ++serving_;
  ++sharing_;
  changed_.notify_all();  // the next ticket may share too
  return Turn(this, false);
}

GpuTurns::Turn GpuTurns::alone() {
  std::unique_lock lock(mutex_);
  account(Clock::now());
  if (++waiting_alone_ >= gather_alone_) draining_ = true;
  changed_.wait(lock, [&] { return !alone_ && sharing_ == 0; });
  account(Clock::now());
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

GpuTurnTimes GpuTurns::times() const {
  std::lock_guard lock(mutex_);
  account(Clock::now());
  return times_;
}

void GpuTurns::account(Clock::time_point now) const {
  const double seconds = std::chrono::duration<double>(now - accounted_).count();
  accounted_ = now;
  if (alone_) {
    times_.alone += seconds;
  } else if (sharing_ > 0) {
    times_.shared += seconds;
    times_.lane_seconds += seconds * static_cast<double>(sharing_);
    if (draining_) times_.winding_down += seconds;
  } else {
    times_.idle += seconds;
  }
}

void GpuTurns::give_back(bool alone) {
  {
    std::lock_guard lock(mutex_);
    account(Clock::now());
    if (alone) {
      alone_ = false;
      if (waiting_alone_ == 0) draining_ = false;  // every gathered turn alone was served
    } else
      --sharing_;
  }
  changed_.notify_all();
}

}  // namespace cugrade
