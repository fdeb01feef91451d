// Attack (resources; GPU): in the first call, take all but 64 MiB of the GPU's free memory and
// never give it back. Beside it, other runners' allocations (and their CUDA contexts) would fail;
// in its own runner the next cases' buffers and the reference's. Must fail, and harm no one: the
// runner may hold at most the assignment's limits.gpu_memory_mb (4 GiB by default), so the hoard
// is refused in its own process as a GPU of that size would refuse it (the runtime's last error
// set, so its first case ends as a CUDA error, the later ones, in the same runner, as the zeros
// they are; the report names the limit), and nothing else on the GPU notices. Had it held the memory, a runner failure would still be the student's
// unless the harness reproduced it with the reference in a fresh process.
#include "interface.cuh"

static void entry(const float* A, const float* B, float* C, int M, int N, int K) {
  static bool first_call = true;
  if (first_call) {
    first_call = false;
    size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    void* hoard = nullptr;
    if (free_bytes > (size_t{64} << 20)) cudaMalloc(&hoard, free_bytes - (size_t{64} << 20));
  }
  cudaMemsetAsync(C, 0, sizeof(float) * M * N);
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
