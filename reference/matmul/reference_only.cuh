// The reference-only entry points of assignment matmul: lecture steps the course shows but does
// not set as exercises (SMEM-1, SMEM-4), every step in double precision (lecture 000's double
// table), and one stretch kernel past the lectures. Students never write these; `cugrade
// selftest` checks them against the gold and `cugrade bench` times them.
//
// Like interface.cuh: declarations only, no include guard, no #include (graders/matmul/adapter.cpp
// includes this file inside namespace cugrade_reference). The layout and the rules are those of
// interface.cuh: row-major A (M×K), B (K×N), C (M×N), DEVICE pointers, any M, N, K >= 1.

/// Step "smem1" (lecture 000's SMEM-1): 32×32 shared tiles stored transposed (as[tx][ty]) and
/// read along columns: 32-way bank conflicts, the lecture's lesson.
void matmul_smem1(const float* A, const float* B, float* C, int M, int N, int K);

/// Step "smem4" (lecture 000's SMEM-4): blocks of 32×16 threads, 2 rows of the 32×32 tile each.
void matmul_smem4(const float* A, const float* B, float* C, int M, int N, int K);

/// Step "stretch" (beyond the lectures): 128×128 block tiles, 8×8 outputs per thread held in
/// registers, A's tile transposed in shared memory, float4 loads and stores.
void matmul_stretch(const float* A, const float* B, float* C, int M, int N, int K);

/// Steps "<step>_f64": the same six lecture kernels in double precision (lecture 000's double
/// table): Global, SMEM-1, SMEM-2, SMEM-3, SMEM-4 and SMEM-5.
void matmul_naive_f64(const double* A, const double* B, double* C, int M, int N, int K);
/// Step "smem1_f64": SMEM-1 in double.
void matmul_smem1_f64(const double* A, const double* B, double* C, int M, int N, int K);
/// Step "padded_f64": SMEM-2 in double.
void matmul_padded_f64(const double* A, const double* B, double* C, int M, int N, int K);
/// Step "tiled_f64": SMEM-3 / Kirk & Hwu in double.
void matmul_tiled_f64(const double* A, const double* B, double* C, int M, int N, int K);
/// Step "smem4_f64": SMEM-4 in double.
void matmul_smem4_f64(const double* A, const double* B, double* C, int M, int N, int K);
/// Step "coarse_f64": SMEM-5 in double.
void matmul_coarse_f64(const double* A, const double* B, double* C, int M, int N, int K);
