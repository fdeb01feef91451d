#pragma once
// The cooperative-groups subset the course uses, on the CPU backend's barriers and warp
// intrinsics (sync.hpp): thread blocks, tiles of 1 to 32 threads (static and dynamic
// tiled_partition), their shuffles, votes and sync, and cg::sync. Everything else in the
// namespace that a course might reach for (grid and multi-grid sync, coalesced and labelled
// groups, clusters, memcpy_async) is declared so that using it fails to compile with a sentence
// naming it, instead of an unknown name.
// Each call passes the student's source location on, so a divergence message names their line.
// A tile smaller than a warp synchronises (and shuffles) over its whole warp: the executor needs
// the lanes of one warp-level call to agree on one mask, so the tiles of a warp must reach their
// collective calls together (docs/cpu-backend.md).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "context.hpp"
#include "sync.hpp"

namespace cooperative_groups {

namespace details {
/// The linear index of the calling thread in its block (x fastest).
inline unsigned block_rank() {
  const auto& c = ::cugrade_cpu::context();
  return c.thread_idx.x + c.block_dim.x * (c.thread_idx.y + c.block_dim.y * c.thread_idx.z);
}
/// `shuffle` applied to `value` 8 bytes at a time: a tile's shfl moves any trivially copyable
/// type (a uint4 in NVIDIA's shfl_scan sample), where __shfl_sync moves at most 8 bytes.
template <class T, class Shuffle> T shuffle_any(const T& value, Shuffle shuffle) {
  if constexpr (sizeof(T) <= 8) {
    return shuffle(value);
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "a tile shuffles trivially copyable values");
    std::uint64_t words[(sizeof(T) + 7) / 8] = {};
    std::memcpy(words, &value, sizeof(T));
    for (std::uint64_t& word : words) word = shuffle(word);
    T out = value;
    std::memcpy(&out, words, sizeof(T));
    return out;
  }
}
inline unsigned block_threads() {
  const auto& c = ::cugrade_cpu::context();
  return c.block_dim.x * c.block_dim.y * c.block_dim.z;
}
}  // namespace details

#define CUGRADE_CG_HERE const std::source_location& where = std::source_location::current()

/// A group whose kind is known only at run time: what tiled_partition(parent, n) returns.
class thread_group {
 public:
  /// The calling thread's tile of `threads` threads (0: the whole block), the `meta_rank`-th of
  /// the `meta_size` tiles of its parent. Sizes other than 1 to 32 (powers of two) end the kernel
  /// with a message.
  thread_group(unsigned threads, unsigned meta_rank, unsigned meta_size)
      : tile_(threads), meta_rank_(meta_rank), meta_size_(meta_size) {
    if (threads > 32 || (threads & (threads - 1)) != 0)
      ::cugrade_cpu::fail_kernel("cooperative_groups::tiled_partition(parent, n) with n other than 1, 2, 4, "
                                 "8, 16 or 32 is not supported by the CPU backend");
  }
  /// Waits for the group's threads.
  void sync(CUGRADE_CG_HERE) const {
    if (tile_ == 0) __syncthreads(where);
    else __syncwarp(0xffffffffu, where);
  }
  /// The calling thread's rank in the group.
  unsigned thread_rank() const { return tile_ == 0 ? details::block_rank() : details::block_rank() % tile_; }
  /// Threads in the group.
  unsigned size() const { return tile_ == 0 ? details::block_threads() : tile_; }
  /// Threads in the group.
  unsigned num_threads() const { return size(); }
  /// Which tile of its parent this is (0 for a block).
  unsigned meta_group_rank() const { return meta_rank_; }
  /// How many tiles its parent has (1 for a block).
  unsigned meta_group_size() const { return meta_size_; }

 private:
  unsigned tile_, meta_rank_, meta_size_;
};

/// The threads of the calling block (cg::this_thread_block()).
class thread_block {
 public:
  /// Waits for every thread of the block (__syncthreads()).
  void sync(CUGRADE_CG_HERE) const { __syncthreads(where); }
  /// 0 .. size()-1, threadIdx linearised with x fastest.
  unsigned thread_rank() const { return details::block_rank(); }
  /// Threads in the block.
  unsigned size() const { return details::block_threads(); }
  /// Threads in the block.
  unsigned num_threads() const { return details::block_threads(); }
  /// blockIdx.
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  /// threadIdx.
  dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  /// blockDim.
  dim3 group_dim() const { return blockDim; }
  /// blockDim.
  dim3 dim_threads() const { return blockDim; }
  /// The block as a group of any kind.
  operator thread_group() const { return thread_group(0, 0, 1); }
};

/// The calling thread's block.
inline thread_block this_thread_block() { return thread_block(); }

/// The scratch memory CUDA's tiles of more than 32 threads need (sm_80's block_tile_memory).
template <std::size_t MaxBlockSize = 1024> struct block_tile_memory {};

/// The calling thread's block, with scratch for tiles larger than a warp: compiles, but ends the
/// kernel that calls it with a message (such tiles are not supported).
template <std::size_t MaxBlockSize> thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
  ::cugrade_cpu::fail_kernel("cooperative_groups::block_tile_memory (scratch for tiles spanning several warps) "
                             "is not supported by the CPU backend; use tiles of up to 32 threads "
                             "(docs/cpu-backend.md)");
}

/// A tile of `Size` consecutive threads of the block (cg::tiled_partition<Size>); `Parent` is
/// what it was cut from (CUDA's second parameter; any tile converts to the one without it).
template <unsigned Size, class Parent = void>
class thread_block_tile {
  static_assert(Size >= 1 && Size <= 1024 && (Size & (Size - 1)) == 0,
                "a thread_block_tile has a power of two of threads, at most 1024");

 public:
  /// The calling thread's tile, the `meta_rank`-th of the `meta_size` tiles of its parent. A tile
  /// of more than 32 threads compiles (kernels a submission never launches may hold one) but
  /// ends the kernel that creates it with a message.
  thread_block_tile(unsigned meta_rank, unsigned meta_size) : meta_rank_(meta_rank), meta_size_(meta_size) {
    if constexpr (Size > 32)
      ::cugrade_cpu::fail_kernel("cooperative_groups::thread_block_tile of more than 32 threads (a tile spanning "
                                 "several warps) is not supported by the CPU backend; use tiles of up to 32 "
                                 "threads and shared memory between them (docs/cpu-backend.md)");
  }
  /// The same tile, forgetting its parent.
  template <class Other>
  thread_block_tile(const thread_block_tile<Size, Other>& tile)
      : meta_rank_(tile.meta_group_rank()), meta_size_(tile.meta_group_size()) {}
  /// The tile as a group of any kind.
  operator thread_group() const { return thread_group(Size, meta_rank_, meta_size_); }
  /// The tile's threads (see the file comment for tiles smaller than a warp).
  void sync(CUGRADE_CG_HERE) const { __syncwarp(0xffffffffu, where); }
  /// 0 .. Size-1.
  unsigned thread_rank() const { return details::block_rank() % Size; }
  /// Size.
  static constexpr unsigned size() { return Size; }
  /// Size.
  static constexpr unsigned num_threads() { return Size; }
  /// Which tile of its parent this is.
  unsigned meta_group_rank() const { return meta_rank_; }
  /// How many tiles its parent has.
  unsigned meta_group_size() const { return meta_size_; }
  /// `value` of the tile's thread `source`.
  template <class T> T shfl(T value, int source, CUGRADE_CG_HERE) const {
    return details::shuffle_any(value, [&](auto v) { return __shfl_sync(0xffffffffu, v, source, Size, where); });
  }
  /// `value` of the thread `delta` ranks higher (own value past the tile's end).
  template <class T> T shfl_down(T value, unsigned delta, CUGRADE_CG_HERE) const {
    return details::shuffle_any(value, [&](auto v) { return __shfl_down_sync(0xffffffffu, v, delta, Size, where); });
  }
  /// `value` of the thread `delta` ranks lower (own value before the tile's start).
  template <class T> T shfl_up(T value, unsigned delta, CUGRADE_CG_HERE) const {
    return details::shuffle_any(value, [&](auto v) { return __shfl_up_sync(0xffffffffu, v, delta, Size, where); });
  }
  /// `value` of the thread whose rank is this one's xor `mask`.
  template <class T> T shfl_xor(T value, unsigned mask, CUGRADE_CG_HERE) const {
    return details::shuffle_any(
        value, [&](auto v) { return __shfl_xor_sync(0xffffffffu, v, static_cast<int>(mask), Size, where); });
  }
  /// Bit r set when the tile's thread r has a non-zero predicate.
  unsigned ballot(int predicate, CUGRADE_CG_HERE) const {
    const unsigned lanes = __ballot_sync(0xffffffffu, predicate, where);
    if constexpr (Size >= 32) return lanes;
    else return (lanes >> (::cugrade_cpu::context().lane / Size * Size)) & ((1u << Size) - 1u);
  }
  /// Whether any thread of the tile has a non-zero predicate.
  int any(int predicate, CUGRADE_CG_HERE) const { return ballot(predicate, where) != 0; }
  /// Whether every thread of the tile has a non-zero predicate.
  int all(int predicate, CUGRADE_CG_HERE) const {
    const unsigned everyone = Size >= 32 ? 0xffffffffu : (1u << (Size % 32)) - 1u;
    return ballot(predicate, where) == everyone;
  }

 private:
  unsigned meta_rank_, meta_size_;
};

namespace details {
template <class T> inline constexpr bool is_tile = false;
template <unsigned Size, class Parent> inline constexpr bool is_tile<thread_block_tile<Size, Parent>> = true;
}  // namespace details

/// The calling thread's tile of `Size` threads of a block or of a larger tile. Why the rank in
/// the parent modulo Size is the rank in the block modulo Size: tiles are aligned runs of threads.
template <unsigned Size, class Parent> thread_block_tile<Size, Parent> tiled_partition(const Parent& parent) {
  static_assert(std::is_same_v<Parent, thread_block> || details::is_tile<Parent>,
                "the CPU backend partitions thread blocks and thread_block_tiles into tiles");
  return thread_block_tile<Size, Parent>(parent.thread_rank() / Size, (parent.num_threads() + Size - 1) / Size);
}

/// The calling thread's tile of `threads` threads (1, 2, 4, 8, 16 or 32) of a block or a tile.
template <class Parent> thread_group tiled_partition(const Parent& parent, unsigned threads) {
  static_assert(std::is_same_v<Parent, thread_block> || std::is_same_v<Parent, thread_group> || details::is_tile<Parent>,
                "the CPU backend partitions thread blocks, thread_groups and thread_block_tiles into tiles");
  return thread_group(threads, threads == 0 ? 0 : parent.thread_rank() / threads,
                      threads == 0 ? 1 : (parent.num_threads() + threads - 1) / threads);
}

/// Waits for the threads of `group`.
template <class Group> void sync(const Group& group, CUGRADE_CG_HERE) { group.sync(where); }
/// The calling thread's rank in `group`.
template <class Group> unsigned thread_rank(const Group& group) { return group.thread_rank(); }
/// The number of threads in `group`.
template <class Group> unsigned group_size(const Group& group) { return group.size(); }
/// The number of threads in `group`.
template <class Group> unsigned num_threads(const Group& group) { return group.size(); }

// What the CPU backend does not run: each call is a compile error on the student's line that
// names it. Why GCC's error attribute and not a static_assert: the attribute is reported at the
// call, in the student's file; a static_assert is reported inside this header.
#define CUGRADE_CG_UNSUPPORTED(what)                                                                  \
  __attribute__((error(what " is not supported by the CPU backend (it supports thread blocks, tiles " \
                            "of up to 32 threads and cg::reduce over a tile; docs/cpu-backend.md)")))

/// Grid-wide groups (cooperative launches): not supported.
struct grid_group {
  CUGRADE_CG_UNSUPPORTED("grid_group::sync() (grid-wide synchronisation)")
  void sync(const std::source_location& = std::source_location::current()) const;
  CUGRADE_CG_UNSUPPORTED("grid_group::thread_rank()") unsigned long long thread_rank() const;
  CUGRADE_CG_UNSUPPORTED("grid_group::size()") unsigned long long size() const;
  CUGRADE_CG_UNSUPPORTED("grid_group::num_threads()") unsigned long long num_threads() const;
};
/// Not supported: grid-wide synchronisation needs a cooperative launch.
CUGRADE_CG_UNSUPPORTED("cooperative_groups::this_grid() (grid-wide synchronisation)") grid_group this_grid();
/// Not supported.
struct multi_grid_group {};
/// Not supported.
CUGRADE_CG_UNSUPPORTED("cooperative_groups::this_multi_grid()") multi_grid_group this_multi_grid();
/// Not supported.
struct coalesced_group {};
/// Not supported.
CUGRADE_CG_UNSUPPORTED("cooperative_groups::coalesced_threads()") coalesced_group coalesced_threads();
/// Not supported.
template <class... Args>
CUGRADE_CG_UNSUPPORTED("cooperative_groups::labeled_partition()") thread_group labeled_partition(Args&&...);
/// Not supported.
template <class... Args>
CUGRADE_CG_UNSUPPORTED("cooperative_groups::binary_partition()") thread_group binary_partition(Args&&...);
/// Not supported.
template <class... Args> CUGRADE_CG_UNSUPPORTED("cooperative_groups::memcpy_async()") void memcpy_async(Args&&...);
/// Not supported.
template <class... Args> CUGRADE_CG_UNSUPPORTED("cooperative_groups::wait()") void wait(Args&&...);
/// Not supported.
template <class... Args> CUGRADE_CG_UNSUPPORTED("cooperative_groups::wait_prior()") void wait_prior(Args&&...);
/// Not supported.
struct cluster_group {};
/// Not supported.
CUGRADE_CG_UNSUPPORTED("cooperative_groups::this_cluster() (thread block clusters)") cluster_group this_cluster();

}  // namespace cooperative_groups

#undef CUGRADE_CG_HERE
#undef CUGRADE_CG_UNSUPPORTED
