#pragma once
// Host entry points of the test kernels (*.cu, compiled through the CPU pre-pass and shims).
// Each returns the results, and the CUDA error string of the launch ("no error" when none).
#include <string>
#include <utility>
#include <vector>

namespace cpu_test {

/// The outcome of a launch: the error string cudaGetErrorString gave for it.
struct Launched {
  std::vector<float> values;
  std::string error;
};

Launched vecadd(const std::vector<float>& a, const std::vector<float>& b, int block);
Launched matmul_tiled(const std::vector<float>& a, const std::vector<float>& b, int n);
/// Harris's reductions 1 to 4 (and 5: warp shuffles) over `in`, one partial sum per block.
Launched reduce(int variant, const std::vector<float>& in, int block);
/// The sum of `in` by one float atomicAdd per element, by the 1024 threads of one block.
float atomic_sum(const std::vector<float>& in);
/// Ballot/any/all/shfl_up/shfl_xor results of one 64-thread block, laid out by lane.
Launched warp_votes(int n_threads);
/// Histogram (atomicAdd on int), atomicMax, atomicMin, atomicCAS float sum, atomicExch, atomicSub.
Launched atomics(const std::vector<int>& in, int bins);
/// __syncthreads_count/and/or over a block of `threads` with predicate (tid % 3 == 0).
Launched barrier_reductions(int threads);
/// Cooperative groups, per block of `block` threads: [sum by tile shuffles, sum by cg::reduce,
/// the last thread's dynamic-tile rank·1000 + size, tile-of-8 #1's max·10 + any(<0)·2 + all·1 +
/// its meta_group_rank·100000].
std::vector<int> cooperative_sums(const std::vector<int>& in, int block);
/// Dynamic shared memory (extern __shared__) reversal of a block.
Launched reverse_block(const std::vector<float>& in);
/// A kernel with the given launch configuration; returns only the error.
std::string launch_with(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        std::size_t shared_bytes);
/// Real-code constructs (real_code_kernels.cu) over `threads` ints 1, 2, ...: "static_shared"
/// (block sum through a `static __shared__` array, in out[0]), "shuffle" (a __shfl_down_sync sum
/// over 32 lanes in a block of `threads`), "spaced_launch" (`k << < 1, n >> > (...)`: 3 * in),
/// "cuda_arch" (__CUDA_ARCH__ as device code reads it; nothing when host code sees it),
/// "aggregated_atomic" (the multiples of 3 among `threads` ints compacted by a warp-aggregated
/// atomicAdd under a divergent branch, blocks of 64: out[0] the count, out[1...] the values),
/// "spin_on_sibling" (thread 0 spins on a volatile __shared__ flag the last thread sets after
/// writing its input to shared memory; out[0] that value), "spin_counting" (the same wait with a
/// block that counts its passes: out[0] the value), "spin_counting_statement" (`while (ready == 0)
/// ++passes;`), "spin_endless_for" (`for (;;) { if (ready != 0) break; ++passes; }`),
/// "spin_do_statement" (`do passes++; while (ready == 0);`).
std::vector<int> real_code(const std::string& which, int threads);
/// "cudaErrorName: message" after a real-code construct that fails or must not: "aligned_float4",
/// "misaligned_float4", "slack_write", "template_name", "template_in_template",
/// "template_local_constant", "block_tile_memory", "carveout" (cudaFuncSetAttribute carve-out, profiler calls), "cublas".
std::string real_code_error(const std::string& which);
/// Faulty kernels: "exit_before_barrier", "different_barriers", "shfl_after_exit",
/// "out_of_bounds_write", "out_of_bounds_read", "host_pointer", "use_after_free", "trap", and a
/// kernel writing 64 floats of dynamic shared memory launched with none ("shared_not_given"),
/// 40 floats ("shared_too_small") or 64 ("shared_given").
std::string faulty(const std::string& which);

/// What far_write_then_reset saw: whether the program's error state was clean after the reset,
/// and cudaErrorIllegalAddress's value (the test includes no CUDA header).
struct AfterReset {
  bool clean = false;
  int illegal_address = 0;
};

/// Launches a kernel that writes 1 MiB past the end of a fresh allocation, then calls
/// cudaDeviceReset(), as a submission hiding its fault would.
AfterReset far_write_then_reset();
/// Reads of shared memory no thread wrote, 3 blocks of 64 threads (unless said otherwise): "static", "dynamic" (threads
/// 32..63 read unwritten elements), "per_block" (64 blocks: only block 0 writes a __shared__ int;
/// one value per block), "file_scope" (each block adds 1 to a file-scope __shared__ int; one per
/// block).
Launched shared_reads(const std::string& which);
/// A race: thread t writes s[t] and, with no barrier, thread t reads s[t+1].
Launched racy(int threads);
/// Non-atomic updates of global memory (global_update_kernels.cu), the race or the no-race of
/// each: "block_sums" (every block's thread 0 does `*out += sum`), "block_sums_one_block",
/// "block_sums_atomic", "histogram" (`hist[bin]++`), "all_into_one" (`total[0] += in[i]` by every
/// thread), "own_elements" (`c[i] += ...` in a loop), "turns_by_barrier" (one thread per step,
/// __syncthreads() between), "reduce_in_global" (Harris's interleaved reduction in global
/// memory), "locked_sum" (under an atomicCAS lock), "separate_launches", "two_lines" (`+=` and `-=`
/// of one element on two lines); `out` afterwards.
Launched global_updates(const std::string& which);
/// The thread of each place in the order the threads of one block ran after a __syncthreads().
std::vector<int> order_after_barrier(int threads);
/// The first 32-bit word of fresh cudaMalloc memory, as the host reads it back.
unsigned fresh_malloc_word();
/// The description of a cudaMemcpy error (cudaGetErrorString), and the line of that call.
std::pair<std::string, int> memcpy_error_text(bool host_as_device);
/// cudaMemcpy/cudaMemset argument checks: the error of each bad call, in order.
std::vector<std::string> memory_api_errors();
/// Device properties: name, maxThreadsPerBlock, sharedMemPerBlock, maxGridSize[1].
std::vector<std::string> device_properties();

}  // namespace cpu_test
