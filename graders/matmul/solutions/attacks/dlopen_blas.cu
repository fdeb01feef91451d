// Attack (libraries the spec does not allow): dlopen a BLAS at run time and let it do the
// work: cuBLAS on a GPU (SGEMM beats every lecture kernel: full performance points), the
// system's reference BLAS (libblas.so.3) on the CPU backend. Nothing is linked, so a link-time
// library check never sees it. Must fail: dlopen and dlsym are not among the symbols a
// submission may import unless its spec allows them (forbidden_symbol); without them the
// submission is graded on its own numbers (zeros).
// How to read the outcome: the submission's own product is wrong (C = 0) unless the attack
// worked, in which case it computes the true product. So "passed" means the attack worked, and
// the expected outcome, wrong_answer, means it was stopped.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dlfcn.h>

#include "interface.cuh"

// The whole content of a file ("" when it cannot be read).
[[maybe_unused]] static std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// C = A·B (row-major) as the column-major Cᵀ = Bᵀ·Aᵀ, which is how a Fortran or cuBLAS SGEMM
// sees row-major arrays. True when some library did it.
static bool gemm(const float* A, const float* B, float* C, int M, int N, int K) {
  const float one = 1.0f, zero = 0.0f;
  const bool on_gpu = slurp("/proc/self/maps").find("/dev/nvidia") != std::string::npos;
  if (on_gpu) {
    for (const char* name : {"libcublas.so", "libcublas.so.13", "libcublas.so.12", "libcublas.so.11"}) {
      void* cublas = dlopen(name, RTLD_NOW);
      if (cublas == nullptr) continue;
      using Create = int (*)(void**);
      using Sgemm = int (*)(void*, int, int, int, int, int, const float*, const float*, int, const float*,
                            int, const float*, float*, int);
      const auto create = reinterpret_cast<Create>(dlsym(cublas, "cublasCreate_v2"));
      const auto sgemm = reinterpret_cast<Sgemm>(dlsym(cublas, "cublasSgemm_v2"));
      static void* handle = nullptr;
      if (create == nullptr || sgemm == nullptr || (handle == nullptr && create(&handle) != 0)) continue;
      return sgemm(handle, 0, 0, N, M, K, &one, B, N, A, K, &zero, C, N) == 0;
    }
    return false;
  }
  for (const char* name : {"libblas.so.3", "libopenblas.so.0", "libblas.so"}) {
    void* blas = dlopen(name, RTLD_NOW);
    if (blas == nullptr) continue;
    using Sgemm =
        void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                 const int*, const float*, const int*, const float*, float*, const int*);
    const auto sgemm = reinterpret_cast<Sgemm>(dlsym(blas, "sgemm_"));
    if (sgemm == nullptr) continue;
    sgemm("N", "N", &N, &M, &K, &one, B, &N, A, &K, &zero, C, &N);
    return true;
  }
  return false;
}

static void entry(const float* A, const float* B, float* C, int M, int N, int K) {
  if (!gemm(A, B, C, M, N, K)) cudaMemsetAsync(C, 0, sizeof(float) * M * N);
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
