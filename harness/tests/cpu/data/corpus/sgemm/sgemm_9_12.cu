// Corpus item (matmul): SGEMM_CUDA's kernels 9 to 12 (src/kernels/), one per step, through the
// repository's run_kernel() (entry_points.cuh).
#define NAIVE_KERNEL 9
#define PADDED_KERNEL 10
#define TILED_KERNEL 11
#define COARSE_KERNEL 12
#include "entry_points.cuh"
