#pragma once
// Several lanes on one GPU. A lane's correctness cases and sanitizer pass leave the GPU mostly
// idle (process starts, instrumentation, judging): on an H100 two self-tests' runs side by side
// took no longer each than alone (docs/measurements.md). The timing and the profiler must have
// the GPU to themselves: a compute-sanitizer process that only waited beside the timing made its
// sampling 4-6x longer and halved a reference's ratio against itself. So lanes take turns: up to
// a number of them share the GPU for their cases, one at a time has it alone for its timing and
// diagnosis. Having it alone means first waiting for every shared turn to end (a drain, seconds
// of an idle GPU); so turns alone can be gathered: lanes waiting to be alone let others go on
// sharing until `gather_alone` of them wait (or nothing else is left to share), then every waiting
// one has its turn, one after another, before any lane shares again. With no gather (SIZE_MAX),
// turns alone wait until no lane shares: the self-test's, once every entry's shared work is done.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace cugrade {

/// Where one GPU's time went while its lanes took turns, in seconds since its turns began: what
/// tells whether sharing, the turns alone or the builds bound a class's rate.
struct GpuTurnTimes {
  double alone = 0.0;         ///< a lane had the GPU alone (timing, profiles, cases run again alone)
  double shared = 0.0;        ///< one lane or more shared it
  double lane_seconds = 0.0;  ///< the shared time summed over the lanes sharing (over `shared`: how many at once)
  double winding_down = 0.0;  ///< of `shared`: gathered turns alone waited for the sharing lanes to end
  double idle = 0.0;          ///< no lane held a turn (the lanes were building, judging or done)
};

/// `a` and `b` added field by field (the GPUs of a host, for one summary).
GpuTurnTimes operator+(const GpuTurnTimes& a, const GpuTurnTimes& b);

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

  /// `sharing_most` lanes share the GPU at most; `gather_alone` lanes waiting to be alone stop the
  /// sharing (1: the first one does; SIZE_MAX: none ever does).
  explicit GpuTurns(std::size_t sharing_most = SIZE_MAX, std::size_t gather_alone = 1);

  /// Waits until no lane has the GPU alone, no gathered turns alone are being served, fewer than
  /// `sharing_most` share it, and every lane that asked to share before has; then shares it with
  /// the others (lanes share in the order they asked).
  Turn shared();
  /// Waits until no lane holds a turn of either kind; then has the GPU alone.
  Turn alone();
  /// From now on up to `most` lanes share the GPU (never fewer than before): the self-test's
  /// once every build is done and the cores they took are free for more lanes' sanitizers.
  void share_with(std::size_t most);
  /// Lanes holding a shared turn now (for tests).
  std::size_t sharing() const;
  /// Whether a lane has the GPU alone now (for tests).
  bool alone_now() const;
  /// Where the GPU's time went from the turns' start until now.
  GpuTurnTimes times() const;

 private:
  using Clock = std::chrono::steady_clock;
  void give_back(bool alone);
  /// The time since the last change added to the state it was spent in (the mutex held).
  void account(Clock::time_point now) const;
  std::size_t sharing_most_;
  const std::size_t gather_alone_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t sharing_ = 0;
  std::size_t waiting_alone_ = 0;
  std::uint64_t next_ticket_ = 0;  ///< the next lane asking to share gets this one
  std::uint64_t serving_ = 0;      ///< the ticket whose lane shares next
  bool alone_ = false;
  bool draining_ = false;  ///< gathered turns alone are waiting or being served: no new sharing
  mutable GpuTurnTimes times_;
  mutable Clock::time_point accounted_ = Clock::now();  ///< times_ holds the time until here
};

}  // namespace cugrade
