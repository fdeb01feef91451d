// Reference for the reference-only step "stretch" of assignment matmul: beyond the lectures, how
// close plain CUDA C++ (FP32 FMAs, no tensor cores) gets to cuBLAS SGEMM. Lecture 000 ends at
// SMEM-5: 4 outputs per thread, 32×32 tiles, one shared-memory load per FMA. The same two ideas,
// pushed further, give the register-tiled kernel every fast SGEMM is built on:
//   - a 128×128 tile of C per block of 256 threads, each thread computing an 8×8 sub-tile held in
//     64 registers; per step along K it reads 8 values of A and 8 of B from shared memory (four
//     float4 loads) and does 64 FMAs with them, where SMEM-5 reads 5 values for 4 FMAs, so
//     shared memory stops being the limit;
//   - A's tile is stored transposed in shared memory (As[k][m]), so that a thread's 8 values of
//     A, like its 8 of B, are two float4 loads (a 128-bit load per 4 values);
//   - global memory is read with float4 loads, and the next K-tile is fetched into registers
//     while the current one is multiplied (two shared buffers, one __syncthreads() per tile);
//   - a thread's 8 rows and 8 columns are two groups of 4, 64 apart, so that the float4 reads of
//     a warp from shared memory and its float4 stores to C are contiguous.
// Any M, N, K: a block whose tile lies inside C, with K and N multiples of 4 and 16-byte-aligned
// pointers, takes the fast path (float4 loads and stores, only the last K-tile guarded); every
// other block loads and stores element by element with bounds checks, zero-filling its tiles.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "reference_only.cuh"

#include <cuda_runtime.h>

#include <cstdint>

constexpr int STRETCH_BM = 128;                 // rows of C per block
constexpr int STRETCH_BN = 128;                 // columns of C per block
constexpr int STRETCH_BK = 8;                   // depth of one K-tile
constexpr int STRETCH_THREADS = 256;            // 16 × 16 threads, 8 × 8 outputs each
constexpr int STRETCH_A_STRIDE = STRETCH_BM + 4;  // As row padding: see store_tiles

// One thread's share of a K-tile on its way from global to shared memory: 4 values of A (row
// tid/2, columns 4·(tid%2)..+3 of the 128×8 tile) and 4 of B (row tid/32, columns 4·(tid%32)..+3
// of the 8×128 tile).
struct StretchStage {
  float4 a;
  float4 b;
};

// Reads the K-tile starting at k0. kFast: the block's tile lies inside C and rows are float4
// aligned, so only the depth can run past K (for A, a whole float4 at a time, since K % 4 == 0).
template <bool kFast>
__device__ __forceinline__ StretchStage stretch_load(const float* A, const float* B, int M, int N, int K,
                                                     int row0, int col0, int k0, int tid) {
  const int a_row = row0 + (tid >> 1), a_col = k0 + (tid & 1) * 4;
  const int b_row = k0 + (tid >> 5), b_col = col0 + (tid & 31) * 4;
  StretchStage s;
  if (kFast) {
    s.a = a_col < K ? *reinterpret_cast<const float4*>(A + static_cast<std::size_t>(a_row) * K + a_col)
                    : make_float4(0.f, 0.f, 0.f, 0.f);
    s.b = b_row < K ? *reinterpret_cast<const float4*>(B + static_cast<std::size_t>(b_row) * N + b_col)
                    : make_float4(0.f, 0.f, 0.f, 0.f);
  } else {
    const bool a_in = a_row < M, b_in = b_row < K;
    const float* a = A + static_cast<std::size_t>(a_in ? a_row : 0) * K;
    const float* b = B + static_cast<std::size_t>(b_in ? b_row : 0) * N;
    s.a.x = a_in && a_col + 0 < K ? a[a_col + 0] : 0.f;
    s.a.y = a_in && a_col + 1 < K ? a[a_col + 1] : 0.f;
    s.a.z = a_in && a_col + 2 < K ? a[a_col + 2] : 0.f;
    s.a.w = a_in && a_col + 3 < K ? a[a_col + 3] : 0.f;
    s.b.x = b_in && b_col + 0 < N ? b[b_col + 0] : 0.f;
    s.b.y = b_in && b_col + 1 < N ? b[b_col + 1] : 0.f;
    s.b.z = b_in && b_col + 2 < N ? b[b_col + 2] : 0.f;
    s.b.w = b_in && b_col + 3 < N ? b[b_col + 3] : 0.f;
  }
  return s;
}

// Writes a staged K-tile to shared memory: A transposed (As[k][m]), B as it is (Bs[k][n]).
// Why As rows are padded by 4 floats: threads tid and tid+1 write A's columns 4 apart, i.e. As
// rows 4 apart; unpadded, 4 rows of 128 floats are 512 floats, a multiple of 32 banks, and those
// stores would conflict. 132 keeps float4 reads of As aligned.
__device__ __forceinline__ void stretch_store(float (*As)[STRETCH_A_STRIDE], float (*Bs)[STRETCH_BN],
                                              const StretchStage& s, int tid) {
  const int a_m = tid >> 1, a_k = (tid & 1) * 4;
  As[a_k + 0][a_m] = s.a.x;
  As[a_k + 1][a_m] = s.a.y;
  As[a_k + 2][a_m] = s.a.z;
  As[a_k + 3][a_m] = s.a.w;
  *reinterpret_cast<float4*>(&Bs[tid >> 5][(tid & 31) * 4]) = s.b;
}

// The whole tile of C at (row0, col0): K-tiles through the two shared buffers, then the stores.
template <bool kFast>
__device__ __forceinline__ void stretch_block(const float* A, const float* B, float* C, int M, int N, int K,
                                              int row0, int col0, float (*As)[STRETCH_BK][STRETCH_A_STRIDE],
                                              float (*Bs)[STRETCH_BK][STRETCH_BN]) {
  const int tid = threadIdx.x;
  // This thread's rows of the tile: 4·tr..4·tr+3 and 64+4·tr..; columns likewise with tc.
  const int tr = tid / 16, tc = tid % 16;

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

  const int tiles = (K + STRETCH_BK - 1) / STRETCH_BK;
  StretchStage stage = stretch_load<kFast>(A, B, M, N, K, row0, col0, 0, tid);
  stretch_store(As[0], Bs[0], stage, tid);
  __syncthreads();
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    // Fetch the next tile now: its global loads are in flight while this one is multiplied.
    const bool more = t + 1 < tiles;
    if (more) stage = stretch_load<kFast>(A, B, M, N, K, row0, col0, (t + 1) * STRETCH_BK, tid);
#pragma unroll
    for (int k = 0; k < STRETCH_BK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][k][4 * tr]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][k][64 + 4 * tr]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][k][4 * tc]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][k][64 + 4 * tc]);
      const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
    }
    // The other buffer was last read in the previous pass, before the barrier that ended it, so
    // it can be overwritten now; the barrier below publishes it before the next pass reads it.
    if (more) stretch_store(As[cur ^ 1], Bs[cur ^ 1], stage, tid);
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = row0 + (i < 4 ? 4 * tr + i : 64 + 4 * tr + (i - 4));
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int col = col0 + 64 * half + 4 * tc;
      const float* v = &acc[i][4 * half];
      if (kFast) {
        *reinterpret_cast<float4*>(C + static_cast<std::size_t>(row) * N + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else if (row < M) {
        float* out = C + static_cast<std::size_t>(row) * N;
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < N) out[col + j] = v[j];
      }
    }
  }
}

__global__ void __launch_bounds__(STRETCH_THREADS, 2)
    stretch_sgemm_kernel(const float* A, const float* B, float* C, int M, int N, int K, bool aligned) {
  // Declared here, not in stretch_block: each of its two instantiations would get its own copy.
  __shared__ __align__(16) float As[2][STRETCH_BK][STRETCH_A_STRIDE];
  __shared__ __align__(16) float Bs[2][STRETCH_BK][STRETCH_BN];
  const int row0 = blockIdx.y * STRETCH_BM, col0 = blockIdx.x * STRETCH_BN;
  // Decided per block, the same for all its threads: no divergence around the barriers inside.
  if (aligned && row0 + STRETCH_BM <= M && col0 + STRETCH_BN <= N)
    stretch_block<true>(A, B, C, M, N, K, row0, col0, As, Bs);
  else
    stretch_block<false>(A, B, C, M, N, K, row0, col0, As, Bs);
}

void matmul_stretch(const float* A, const float* B, float* C, int M, int N, int K) {
  const auto aligned16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  // float4 rows need K (for A) and N (for B and C) to be multiples of 4, and aligned bases.
  const bool aligned = K % 4 == 0 && N % 4 == 0 && aligned16(A) && aligned16(B) && aligned16(C);
  dim3 blocks((N + STRETCH_BN - 1) / STRETCH_BN, (M + STRETCH_BM - 1) / STRETCH_BM);
  stretch_sgemm_kernel<<<blocks, STRETCH_THREADS>>>(A, B, C, M, N, K, aligned);
}
