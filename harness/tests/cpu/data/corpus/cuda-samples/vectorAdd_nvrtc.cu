// Corpus item (vecadd): Samples/0_Introduction/vectorAdd_nvrtc/vectorAdd_kernel.cu (the kernel the sample
// loads through the driver API / NVRTC), launched as the sample does: 256 threads per block.
#include "Samples/0_Introduction/vectorAdd_nvrtc/vectorAdd_kernel.cu"
#include "vecadd_round_trip.cuh"

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  round_trip(h_A, h_B, h_C, n, [](const float* d_A, const float* d_B, float* d_C, int N) {
    vectorAdd<<<(N + 255) / 256, 256>>>(d_A, d_B, d_C, N);
  });
}
