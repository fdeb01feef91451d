#pragma once
// Several lanes on one GPU. A lane's correctness cases and sanitizer pass leave the GPU mostly
// idle (process starts, instrumentation, judging): on an H100 two self-tests' runs side by side
// took no longer each than alone (docs/measurements.md). The timing and the profiler must have
// the GPU to themselves: a compute-sanitizer process that only waited beside the timing made its
// sampling 4-6x longer and halved a reference's ratio against itself. So lanes take turns: any number share the GPU for their cases, one at a
// time has it alone for its timing and diagnosis, and a lane waiting to be alone goes before any
// lane that asks to share after it.
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace cugrade {

/// The turns of the lanes that share one GPU.
class GpuTurns {
 public:
  /// A turn held while it lives (moved, not copied).
  class Turn {
   public:
    Turn() = default;
    Turn(Turn&& other) noexcept : turns_(other.turns_), alone_(other.alone_) { other.turns_ = nullptr; }
    Turn& operator=(Turn&& other) noexcept;
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;
    ~Turn() { release(); }
    /// Gives the turn back now (nothing when it holds none).
    void release();
    /// Whether it holds a turn.
    bool held() const { return turns_ != nullptr; }

   private:
    friend class GpuTurns;
    Turn(GpuTurns* turns, bool alone) : turns_(turns), alone_(alone) {}
    GpuTurns* turns_ = nullptr;
    bool alone_ = false;
  };

  /// Waits until no lane has, or waits for, the GPU alone; then shares it with the others.
  Turn shared();
  /// Waits until no lane holds a turn of either kind; then has the GPU alone.
  Turn alone();
  /// Lanes holding a shared turn now (for tests).
  std::size_t sharing() const;
  /// Whether a lane has the GPU alone now (for tests).
  bool alone_now() const;

 private:
  void give_back(bool alone);
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t sharing_ = 0;
  std::size_t waiting_alone_ = 0;
  bool alone_ = false;
};

}  // namespace cugrade
