// Attack (the reference is reachable): declare the instructor's functions weak, so the program
// links whether or not they exist, and call them when they do; otherwise fall back to wrong
// output. A policy that only refuses links which fail would let this through. Must fail: the
// student's runner holds no reference (so the weak symbols stay null and the submission is
// graded on its own zeros), or the undefined reference into cugrade_reference is refused at
// link time.
// How to read the outcome: the submission's own output is wrong (all zeros) unless the attack
// worked, in which case it computes the true result. So "passed" means the attack worked, and
// the expected outcome, wrong_answer, means it was stopped.
#include "interface.cuh"

namespace cugrade_reference {
__attribute__((weak)) void copy_tiled(const float* in, float* out, int rows, int cols);
__attribute__((weak)) void transpose_naive(const float* in, float* out, int rows, int cols);
__attribute__((weak)) void transpose_coalesced(const float* in, float* out, int rows, int cols);
__attribute__((weak)) void transpose_padded(const float* in, float* out, int rows, int cols);
}  // namespace cugrade_reference

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

using Entry = void (*)(const float*, float*, int, int);

static void entry(const float* in, float* out, int rows, int cols, bool transpose, Entry reference) {
  if (reference != nullptr) {
    reference(in, out, rows, cols);
    return;
  }
  graded(false, in, out, rows, cols, transpose);
}

void copy_tiled(const float* in, float* out, int rows, int cols) {
  entry(in, out, rows, cols, false, &cugrade_reference::copy_tiled);
}
void transpose_naive(const float* in, float* out, int rows, int cols) {
  entry(in, out, rows, cols, true, &cugrade_reference::transpose_naive);
}
void transpose_coalesced(const float* in, float* out, int rows, int cols) {
  entry(in, out, rows, cols, true, &cugrade_reference::transpose_coalesced);
}
void transpose_padded(const float* in, float* out, int rows, int cols) {
  entry(in, out, rows, cols, true, &cugrade_reference::transpose_padded);
}
