// Corpus item (matmul): Samples/0_Introduction/matrixMulDrv/matrixMul_kernel.cu (the kernels the
// sample loads through the driver API), launched as matrixMulDrv.cpp does: a grid of
// WC / block_size by HC / block_size blocks (whole tiles only). naive: matrixMul_bs8_64bit,
// padded: _bs16_, tiled and coarse: _bs32_.
#include "Samples/0_Introduction/matrixMulDrv/matrixMul_kernel.cu"

#define CORPUS_LAUNCH(kernel, block_size)                                             \
  kernel<<<dim3(N / block_size, M / block_size), dim3(block_size, block_size)>>>( \
      C, const_cast<float*>(A), const_cast<float*>(B), (size_t)K, (size_t)N)
void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) { CORPUS_LAUNCH(matrixMul_bs8_64bit, 8); }
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) { CORPUS_LAUNCH(matrixMul_bs16_64bit, 16); }
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) { CORPUS_LAUNCH(matrixMul_bs32_64bit, 32); }
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) { CORPUS_LAUNCH(matrixMul_bs32_64bit, 32); }
