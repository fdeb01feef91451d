// Reference for step "accel_shared" of assignment nbody: lecture 000's Acceleration_Shared. Each
// block of 256 threads walks the bodies in tiles of 256: the threads copy one tile's positions to
// __shared__ Xs, Ys (one body each), synchronise, every thread adds the tile's bodies to its own
// sum, and they synchronise again before the next tile overwrites it. Generalised to any N: the
// last tile is partial (its threads past N load nothing, and the sum stops at N — padding the
// tile with zeros would add phantom bodies at the origin), and threads past N take part in the
// loads and barriers but write nothing.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cuda_runtime.h>

// Tile size = threads per block, the lecture's 256 (`__shared__ float Xs[256], Ys[256]`).
constexpr int ACCEL_TILE = 256;

__global__ void Acceleration_Shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N,
                                    int N_block) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  float ax = 0.f;
  float ay = 0.f;
  float xx, yy, rr;
  int sh = (nt - 1) * N;
  float xxx = id < N ? X[id + sh] : 0.f;  // this thread's body
  float yyy = id < N ? Y[id + sh] : 0.f;
  __shared__ float Xs[ACCEL_TILE];
  __shared__ float Ys[ACCEL_TILE];
  for (int i = 0; i < N_block; i++) {  // loop over the tiles
    int first = i * ACCEL_TILE;
    if (first + threadIdx.x < N) {  // copy one tile from global to shared memory
      Xs[threadIdx.x] = X[threadIdx.x + first + sh];
      Ys[threadIdx.x] = Y[threadIdx.x + first + sh];
    }
    __syncthreads();  // the whole tile is loaded
    int count = min(ACCEL_TILE, N - first);  // the last tile may be partial
    if (id < N) {
      for (int j = 0; j < count; j++) {
        if (j + first != id) {
          xx = Xs[j] - xxx;
          yy = Ys[j] - yyy;
          rr = sqrtf(xx * xx + yy * yy);
          if (rr > 0.01f) {
            rr = 10.f / (rr * rr * rr);
            ax += xx * rr;
            ay += yy * rr;
          }
        }
      }
    }
    __syncthreads();  // everyone is done with this tile before the next is loaded
  }
  if (id < N) {
    AX[id] = ax;
    AY[id] = ay;
  }
}

void nbody_accel_shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  const int N_block = (N + ACCEL_TILE - 1) / ACCEL_TILE;  // blocks = tiles, rounded up
  Acceleration_Shared<<<N_block, ACCEL_TILE>>>(X, Y, AX, AY, nt, N, N_block);
}
