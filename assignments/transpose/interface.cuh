// The student contract of assignment transpose: the functions a submission must define.
//
// Deliberately no include guard and no #include: cugrade includes this file twice in one
// translation unit, once at global scope (the student's functions) and once inside
// `namespace cugrade_reference { ... }` (the instructor's), so that both can be linked into the
// same runner; a guard would silently drop the second set of declarations.
//
// Layout: every matrix is row-major in one array. `in` is rows×cols (in[row*cols + col]); the
// transpose `out` is cols×rows (out[col*rows + row] = in[row*cols + col]); the copy's `out` is
// rows×cols like `in`.

/// Step "copy": the lecture's bandwidth baseline, out[row*cols + col] = in[row*cols + col],
/// with the same 32×32 tiles and 32×8 threads as the tiled transpose (each thread copies 4
/// elements of its tile, 8 rows apart). `in` and `out` are DEVICE pointers (already allocated;
/// out holds garbage). The function launches the kernel on the default stream and returns; it
/// need not synchronize (cugrade does). Sizes: any rows, cols >= 1. `in` must not be modified.
void copy_tiled(const float* in, float* out, int rows, int cols);

/// Step "naive": out = inᵀ with one thread per element, reading `in` row by row and writing
/// `out` with a stride of rows (the lecture's mtran, with bounds checks). DEVICE pointers,
/// default stream, no need to synchronize. Sizes: any rows, cols >= 1. `in` must not be
/// modified.
void transpose_naive(const float* in, float* out, int rows, int cols);

/// Step "coalesced": out = inᵀ through a __shared__ float tile[32][32] (the lecture's
/// mtran_coalesced: 32×32 tiles, blocks of 32×8 threads, a row of the tile read and a row of
/// out written by each warp, __syncthreads() between the two phases). DEVICE pointers, default
/// stream, no need to synchronize. Sizes: any rows, cols >= 1; partial tiles at the edges must
/// be handled in both the loading and the storing phase. `in` must not be modified.
void transpose_coalesced(const float* in, float* out, int rows, int cols);

/// Step "padded": the coalesced transpose with the tile padded to tile[32][33], so reading a
/// column of the tile hits 32 different shared-memory banks. DEVICE pointers, default stream, no
/// need to synchronize. Sizes: any rows, cols >= 1, partial tiles handled as in the coalesced
/// step. `in` must not be modified.
void transpose_padded(const float* in, float* out, int rows, int cols);
