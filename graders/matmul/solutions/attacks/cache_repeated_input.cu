// Attack (skipped work in the timing loop; GPU): the timed samples used to run again and again
// on the same inputs, and only one call after timing, on fresh inputs, was checked. So: keep a
// fingerprint of the inputs on the device; on a new input do the honest, slow work (the naive
// kernel, three times over: far too slow for any performance point); on an input seen just
// before, do a twelfth of it and leave the rest of C as the previous call wrote it. Every
// correctness case and the check after timing see new inputs and get a correct C; the timed
// samples look twice as fast as the reference. Must fail: every timed sample runs on fresh
// inputs whose output is verified, so the honest (slow) time is the one graded: no performance
// points.
#include "interface.cuh"

constexpr int kProbes = 64;
__device__ float fingerprint[2 * kProbes];
__device__ int repeated;

// Compares 64 sampled elements of A and B with the last call's, and keeps the new ones.
__global__ void compareInputs(const float* A, const float* B, int sizeA, int sizeB) {
  const int t = threadIdx.x;
  const float a = A[(static_cast<long long>(t) * 7919) % sizeA];
  const float b = B[(static_cast<long long>(t) * 104729) % sizeB];
  const bool same = fingerprint[t] == a && fingerprint[kProbes + t] == b;
  const bool all_same = __syncthreads_and(same);
  fingerprint[t] = a;
  fingerprint[kProbes + t] = b;
  if (t == 0) repeated = all_same ? 1 : 0;
}

// The naive kernel; on a repeated input only pass 0 runs, and only a quarter of its blocks.
__global__ void naiveKernel(const float* A, const float* B, float* C, int M, int N, int K, int pass) {
  if (repeated && (pass > 0 || (blockIdx.x + blockIdx.y) % 4 != 0)) return;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}

static void entry(const float* A, const float* B, float* C, int M, int N, int K) {
  compareInputs<<<1, kProbes>>>(A, B, M * K, K * N);
  const dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
  for (int pass = 0; pass < 3; ++pass) naiveKernel<<<grid, block>>>(A, B, C, M, N, K, pass);
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
