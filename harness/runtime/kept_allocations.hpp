#pragma once
// Device memory that a timed call allocates and frees, kept for the next timed call (the
// bookkeeping only; allocation_wraps.cpp routes cudaMalloc and cudaFree through it).
// Why: the lectures' reductions (and a student who follows them) allocate their partial sums with
// cudaMalloc and free them inside every call. That pair cost 90-97 µs on an H100, and what it
// costs differs from one process to another, so the reference against itself scored 0.79 to 1.16
// on reduce3 (docs/measurements.md). Served from memory an earlier call freed, both sides' calls
// cost what their kernels cost.
#include <cstddef>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cugrade::runner {

/// Which blocks timed calls hold and which they have freed; not thread-safe (the wraps lock).
class KeptAllocations {
 public:
  /// What cudaFree(pointer) is to do.
  enum class Free {
    keep,         ///< a block a timed call made, freed inside a timed call: kept (keep())
    real,         ///< anything else: the real cudaFree
    double_free,  ///< a block already freed and kept: the error a real second cudaFree gives
  };

  /// Keeps at most `most_kept` freed blocks; beyond that the oldest goes (evicted()).
  explicit KeptAllocations(std::size_t most_kept = 32) : most_kept_(most_kept) {}

  /// A kept block of exactly `bytes`, handed out again (held until freed); null when none.
  void* take(std::size_t bytes);

  /// Notes `pointer`, `bytes` long, as made inside a timed call (a fresh cudaMalloc).
  void note_made(void* pointer, std::size_t bytes);

  /// What freeing `pointer` is to do, `in_call` when a timed call is in progress; for keep, its
  /// size goes to `bytes`. After keep or real the block is no longer held.
  Free on_free(void* pointer, bool in_call, std::size_t& bytes);

  /// Keeps `pointer` (a block on_free said to keep) for a later take(); the blocks over the limit
  /// go to evicted().
  void keep(void* pointer, std::size_t bytes);

  /// Removes and returns every kept block (for the real cudaFree).
  std::vector<void*> release_all();

  /// Removes and returns the blocks keep() pushed over the limit (for the real cudaFree).
  std::vector<void*> evicted() { return std::exchange(evicted_, {}); }

  /// How many freed blocks are kept now.
  std::size_t kept_count() const { return kept_.size(); }

 private:
  std::size_t most_kept_;
  std::unordered_map<void*, std::size_t> held_;      ///< blocks made in timed calls, not freed
  std::vector<std::pair<void*, std::size_t>> kept_;  ///< freed blocks, oldest first
  std::vector<void*> evicted_;
};

}  // namespace cugrade::runner
