// Corpus item (matmul): SGEMM_CUDA's kernels 5 to 8 (src/kernels/), one per step, through the
// repository's run_kernel() (entry_points.cuh).
#define NAIVE_KERNEL 5
#define PADDED_KERNEL 6
#define TILED_KERNEL 7
#define COARSE_KERNEL 8
#include "entry_points.cuh"
