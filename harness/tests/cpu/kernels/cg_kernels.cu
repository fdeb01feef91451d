// Test kernels: the cooperative-groups subset (thread blocks, static and dynamic tiles, their
// shuffles and votes, cg::reduce, cg::sync), written as a course would.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <vector>

#include "kernels.hpp"

namespace cg = cooperative_groups;

namespace {

// A block sum in three ways, one output each per block: warp tiles with shfl_down and the tiles'
// partial sums in shared memory; cg::reduce over each tile; a dynamic tile's rank and size.
__global__ void block_sums(const int* in, int* out, int n) {
  __shared__ int partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const unsigned i = blockIdx.x * block.size() + block.thread_rank();
  int v = i < static_cast<unsigned>(n) ? in[i] : 0;

  int s = v;
  for (unsigned d = warp.size() / 2; d > 0; d /= 2) s += warp.shfl_down(s, d);
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = s;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    int total = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0;
    total = cg::reduce(warp, total, cg::plus<int>());
    if (warp.thread_rank() == 0) out[4 * blockIdx.x] = total;
  }
  cg::sync(block);

  int reduced = cg::reduce(warp, v, cg::plus<int>());
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = reduced;
  block.sync();
  if (block.thread_rank() == 0) {
    int total = 0;
    for (unsigned w = 0; w < warp.meta_group_size(); ++w) total += partial[w];
    out[4 * blockIdx.x + 1] = total;
  }

  cg::thread_group tile = cg::tiled_partition(block, 32);
  tile.sync();
  if (block.thread_rank() == block.size() - 1)
    out[4 * blockIdx.x + 2] = static_cast<int>(tile.thread_rank() * 1000 + tile.size());
  // Tiles of 8: the largest value of each, broadcast from its rank 0 after a max reduction.
  cg::thread_block_tile<8> eight = cg::tiled_partition<8>(warp);
  const int largest = cg::reduce(eight, v, cg::greater<int>());
  const int from_first = eight.shfl(largest, 0);
  const bool any_negative = eight.any(v < 0), all_equal = eight.all(from_first == largest);
  if (block.thread_rank() == 8)
    out[4 * blockIdx.x + 3] = from_first * 10 + (any_negative ? 2 : 0) + (all_equal ? 1 : 0) +
                              static_cast<int>(eight.meta_group_rank()) * 100000;
}

}  // namespace

namespace cpu_test {

std::vector<int> cooperative_sums(const std::vector<int>& in, int block) {
  const int n = static_cast<int>(in.size()), blocks = (n + block - 1) / block;
  int *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, 4 * blocks * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  block_sums<<<blocks, block>>>(d_in, d_out, n);
  std::vector<int> out(4 * blocks);
  cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return out;
}

}  // namespace cpu_test
