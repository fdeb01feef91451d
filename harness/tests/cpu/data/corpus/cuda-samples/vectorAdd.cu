// Corpus item (vecadd): Samples/0_Introduction/vectorAdd/vectorAdd.cu, its kernel launched as
// the sample's main launches it; the round trip is the course's (vecadd_round_trip.cuh).
#include "common_headers.cuh"
#define main vectorAdd_sample_main
#include "Samples/0_Introduction/vectorAdd/vectorAdd.cu"
#undef main
#include "vecadd_round_trip.cuh"

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  round_trip(h_A, h_B, h_C, n, [](const float* d_A, const float* d_B, float* d_C, int numElements) {
    int threadsPerBlock = 256;
    int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
    vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
  });
}
