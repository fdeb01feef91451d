// Attack (work that escapes the timer; GPU): launch on a stream of its own created with
// cudaStreamNonBlocking, which does not wait for (nor hold up) the legacy default stream that
// the runner's CUDA events were recorded on, and return at once: the events measure next to
// nothing. The kernel is the naive one, three times over: honestly far too slow for any
// performance point. Must fail: the time graded is taken by the harness around the whole call
// and a device-wide synchronisation, so work on any stream counts: no performance points.
#include "interface.cuh"

__global__ void naiveKernel(const float* A, const float* B, float* C, int M, int N, int K) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}

static void entry(const float* A, const float* B, float* C, int M, int N, int K) {
  static cudaStream_t side = nullptr;
  if (side == nullptr) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  const dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
  for (int pass = 0; pass < 3; ++pass) naiveKernel<<<grid, block, 0, side>>>(A, B, C, M, N, K);
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
