// The student contract of assignment matmul: the functions a submission must define.
//
// Deliberately no include guard and no #include: cugrade includes this file twice in one
// translation unit, once at global scope (the student's functions) and once inside
// `namespace cugrade_reference { ... }` (the instructor's), so that both can be linked into the
// same runner; a guard would silently drop the second set of declarations.
//
// Layout (the CUDA SDK's rectangular matrixMul): every matrix is row-major in one array;
// A is M×K (A[row*K + k]), B is K×N (B[k*N + col]), C = A·B is M×N (C[row*N + col]).
// Every function: A, B and C are DEVICE pointers (already allocated and filled; C holds
// garbage); it launches its kernel(s) on the default stream and returns, without synchronizing
// (cugrade does). Sizes: any M, N, K >= 1, not only multiples of the block or tile size.
// A and B must not be modified.

/// Step "naive": one thread per element of C reading A and B straight from global memory (the
/// lecture's kernel_global / Kirk & Hwu's simple MatrixMulKernel), with Row/Col bounds checks.
void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K);

/// Step "padded" (lecture 000's SMEM-2): 32×32 blocks, each computing a 32×32 tile of C through
/// __shared__ tiles stored TRANSPOSED as in SMEM-1 (as[tx][ty] = A's element (ty, tx), read as
/// as[k][ty] and bs[tx][k]) and padded to [32][33] so that these column accesses hit 32
/// different banks. Partial tiles at the edges (in M, N and K) must be handled.
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K);

/// Step "tiled" (Kirk & Hwu's tiled kernel with TILE_WIDTH = 32, lecture 000's SMEM-3): each
/// 32×32 block computes a 32×32 tile of C from tiles of A and B staged in __shared__ memory in
/// row order (ds_A[ty][k] * ds_B[k][tx]), with __syncthreads() between loading and computing.
/// Partial tiles at the edges (in M, N and K) must be handled, e.g. by loading 0.
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K);

/// Step "coarse" (lecture 000's SMEM-5, more work per thread): blocks of 32×8 threads, each
/// block computing a 32×32 tile of C, each thread 4 of its elements (rows ty, ty+8, ty+16 and
/// ty+24 of the tile, one column) from the same shared tiles as "tiled". Every size must work,
/// also when M is not a multiple of 4 or of 32.
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K);
