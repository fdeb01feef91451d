#pragma once
// The CPU backend's <cublas_v2.h>: cuBLAS is NVIDIA's closed GPU library, so nothing of it runs
// here. A submission that includes it (to compare against cublasSgemm, say) still compiles, and
// whatever its graded functions never call costs nothing; a call that is reached returns
// CUBLAS_STATUS_NOT_SUPPORTED and ends the case with a message naming it.
#include "cuda_runtime.h"
#include "cugrade_cpu/runtime_settings.hpp"

/// cuBLAS's status codes.
typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
} cublasStatus_t;
/// Whether an operand is transposed.
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;
/// Tensor-core use.
typedef enum { CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_TF32_TENSOR_OP_MATH = 3 } cublasMath_t;
/// Where alpha and beta live.
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
/// Element types (library_types.h's cudaDataType).
typedef enum { CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2, CUDA_R_8I = 3, CUDA_R_32I = 10, CUDA_R_16BF = 14 } cudaDataType;
/// Compute precisions of cublasGemmEx.
typedef enum {
  CUBLAS_COMPUTE_16F = 64,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_64F = 70,
  CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
} cublasComputeType_t;
/// Algorithm choices of cublasGemmEx.
typedef enum { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 } cublasGemmAlgo_t;
struct cublasContext;
/// A cuBLAS handle (never created here).
typedef struct cublasContext* cublasHandle_t;

namespace cugrade_cpu {
/// Records that `call` of cuBLAS was reached (cudaErrorNotSupported, a sentence naming it).
inline cublasStatus_t cublas_not_supported(const char* call) {
  not_supported(call, "cuBLAS is NVIDIA's GPU library and does not run on the CPU backend; grade this "
                      "on a GPU, or keep cuBLAS out of the graded functions");
  return CUBLAS_STATUS_NOT_SUPPORTED;
}
}  // namespace cugrade_cpu

// Why macros over variadic lambdas: one line per function, any argument list, and no symbol of
// the student's object named like cuBLAS's (the symbol policy would ask where it comes from).
#define CUGRADE_CPU_CUBLAS(name) \
  [](auto&&...) { return ::cugrade_cpu::cublas_not_supported(#name); }
#define cublasCreate CUGRADE_CPU_CUBLAS(cublasCreate)
#define cublasDestroy CUGRADE_CPU_CUBLAS(cublasDestroy)
#define cublasSetStream CUGRADE_CPU_CUBLAS(cublasSetStream)
#define cublasSetMathMode CUGRADE_CPU_CUBLAS(cublasSetMathMode)
#define cublasSetPointerMode CUGRADE_CPU_CUBLAS(cublasSetPointerMode)
#define cublasSgemm CUGRADE_CPU_CUBLAS(cublasSgemm)
#define cublasDgemm CUGRADE_CPU_CUBLAS(cublasDgemm)
#define cublasGemmEx CUGRADE_CPU_CUBLAS(cublasGemmEx)
#define cublasSgemmStridedBatched CUGRADE_CPU_CUBLAS(cublasSgemmStridedBatched)
#define cublasSgeam CUGRADE_CPU_CUBLAS(cublasSgeam)
#define cublasSaxpy CUGRADE_CPU_CUBLAS(cublasSaxpy)
#define cublasSdot CUGRADE_CPU_CUBLAS(cublasSdot)
#define cublasSscal CUGRADE_CPU_CUBLAS(cublasSscal)
#define cublasSasum CUGRADE_CPU_CUBLAS(cublasSasum)
#define cublasSnrm2 CUGRADE_CPU_CUBLAS(cublasSnrm2)
#define cublasIsamax CUGRADE_CPU_CUBLAS(cublasIsamax)
