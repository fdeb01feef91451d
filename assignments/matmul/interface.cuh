// The student contract of assignment matmul: the functions a submission must define.
//
// Deliberately no include guard and no #include: cugrade includes this file twice in one
// translation unit, once at global scope (the student's functions) and once inside
// `namespace cugrade_reference { ... }` (the instructor's), so that both can be linked into the
// same runner; a guard would silently drop the second set of declarations.
//
// Layout (the CUDA SDK's rectangular matrixMul): every matrix is row-major in one array;
// A is M×K (A[row*K + k]), B is K×N (B[k*N + col]), C = A·B is M×N (C[row*N + col]).

/// Step "naive": C = A·B with one thread per element of C reading A and B straight from global
/// memory (the lecture's kernel_global / Kirk & Hwu's simple MatrixMulKernel, with Row/Col
/// bounds checks). A, B and C are DEVICE pointers (already allocated and filled; C holds
/// garbage). The function launches the kernel(s) on the default stream and returns; it need not
/// synchronize (cugrade does). Sizes: any M, N, K >= 1, not only multiples of the block size.
/// A and B must not be modified.
void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K);

/// Step "tiled": the same product, each block computing a TILE_WIDTH×TILE_WIDTH (32×32) tile of
/// C by looping over tiles of A and B staged in __shared__ memory with __syncthreads() between
/// the loading and the computing phase (Kirk & Hwu's tiled kernel, SMEM-3's row access
/// as[ty][k]*bs[k][tx]). DEVICE pointers, default stream, no need to synchronize. Sizes: any
/// M, N, K >= 1; partial tiles at the edges (in M, N and K) must be handled, e.g. by loading 0
/// for elements outside the matrices. A and B must not be modified.
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K);
