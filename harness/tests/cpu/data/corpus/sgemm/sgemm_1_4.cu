// Corpus item (matmul): SGEMM_CUDA's kernels 1 to 4 (src/kernels/), one per step, through the
// repository's run_kernel() (entry_points.cuh).
#define NAIVE_KERNEL 1
#define PADDED_KERNEL 2
#define TILED_KERNEL 3
#define COARSE_KERNEL 4
#include "entry_points.cuh"
