// Attack (symbols): define __wrap_cudaLaunchKernel, the name the runner's launch record uses
// (the linker's --wrap): the submission's kernels would no longer be seen by the harness (and
// a launch could be faked). Refused before these defences too; kept so the allowlist is shown
// to cover it. Must fail: forbidden_symbol, naming the symbol.
#include "interface.cuh"

// One thread per element: out = in (transposed when `transpose`), correct for every size.
__global__ void naiveKernel(const float* in, float* out, int rows, int cols, bool transpose) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols) return;
  out[transpose ? col * rows + row : row * cols + col] = in[row * cols + col];
}

// The true result when the attack worked (see the top of this file); otherwise zeros.
static void graded(bool attack_worked, const float* in, float* out, int rows, int cols, bool transpose) {
  if (!attack_worked) {
    cudaMemsetAsync(out, 0, sizeof(float) * rows * cols);
    return;
  }
  naiveKernel<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(in, out, rows, cols, transpose);
}

extern "C" cudaError_t __wrap_cudaLaunchKernel(const void* function, dim3 grid, dim3 block, void** args,
                                               size_t shared, cudaStream_t stream) {
  return cudaSuccess;
}

static void entry(const float* in, float* out, int rows, int cols, bool transpose) {
  graded(true, in, out, rows, cols, transpose);
}

void copy_tiled(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, false); }
void transpose_naive(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, true); }
void transpose_coalesced(const float* in, float* out, int rows, int cols) {
  entry(in, out, rows, cols, true);
}
void transpose_padded(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, true); }
