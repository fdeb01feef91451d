#pragma once
// The CPU backend's <cublas_v2.h>: cuBLAS is NVIDIA's closed GPU library, so nothing of it runs
// here. A submission that includes it (to compare against cublasSgemm, say) compiles; where its
// assignment allows cuBLAS it also links, and whatever its graded functions never call costs
// nothing, while a call that is reached returns CUBLAS_STATUS_NOT_SUPPORTED and ends the case
// with a message naming it.
#include "cuda_runtime.h"

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

// Every function of the list is declared with C linkage and any arguments, so that a call is a
// use of the same symbol as on a GPU: an assignment that does not allow cuBLAS refuses it on
// both backends (the symbol policy), and one that does links it against the CPU runner library,
// whose definitions (executor/cublas_refusal.cpp) return CUBLAS_STATUS_NOT_SUPPORTED and end the
// case with cudaErrorNotSupported and a sentence naming the call.
#define CUGRADE_CPU_CUBLAS_FUNCTIONS(X)                                                      \
  X(cublasCreate) X(cublasDestroy) X(cublasSetStream) X(cublasSetMathMode)                  \
  X(cublasSetPointerMode) X(cublasSgemm) X(cublasDgemm) X(cublasGemmEx)                      \
  X(cublasSgemmStridedBatched) X(cublasSgeam) X(cublasSaxpy) X(cublasSdot) X(cublasSscal)    \
  X(cublasSasum) X(cublasSnrm2) X(cublasIsamax)
#define CUGRADE_CPU_CUBLAS_DECLARE(name) extern "C" cublasStatus_t name(...);
CUGRADE_CPU_CUBLAS_FUNCTIONS(CUGRADE_CPU_CUBLAS_DECLARE)
#undef CUGRADE_CPU_CUBLAS_DECLARE
