// cuBLAS on the CPU backend: every function cublas_v2.h declares, defined to refuse. A
// submission reaches them only where its assignment allows cuBLAS (the symbol policy refuses the
// use otherwise, as on a GPU); a call ends the case with a sentence naming it.
#include <cublas_v2.h>

#include "cugrade_cpu/runtime_settings.hpp"

namespace {

cublasStatus_t refuse(const char* call) {
  cugrade_cpu::not_supported(call, "cuBLAS is NVIDIA's GPU library and does not run on the CPU backend; grade "
                                   "this on a GPU, or keep cuBLAS out of the graded functions");
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

}  // namespace

#define CUGRADE_CPU_CUBLAS_DEFINE(name) \
  extern "C" cublasStatus_t name(...) { return refuse(#name); }
CUGRADE_CPU_CUBLAS_FUNCTIONS(CUGRADE_CPU_CUBLAS_DEFINE)
