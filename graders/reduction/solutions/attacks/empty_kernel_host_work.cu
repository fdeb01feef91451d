// Attack (a result that is not the GPU's work, with a kernel for show): every reduction step
// copies the input to the host, sums it there, copies the sum into `out` and launches a kernel
// that does nothing. Its answer is right in every case. Must fail: `out` ends the call holding
// exactly what host code copied into it, unchanged by any kernel, so every case is "computed
// without a kernel" (runtime/host_work.hpp): no points.
#include <vector>

#include "interface.cuh"

__global__ void nothing(long long*) {}

static void sumOnHost(const int* in, long long* out, int n) {
  std::vector<int> host(n);
  cudaMemcpy(host.data(), in, n * sizeof(int), cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int v : host) sum += v;
  cudaMemcpy(out, &sum, sizeof sum, cudaMemcpyHostToDevice);
  nothing<<<1, 32>>>(out);
}

void reduce_1(const int* in, long long* out, int n) { sumOnHost(in, out, n); }
void reduce_2(const int* in, long long* out, int n) { sumOnHost(in, out, n); }
void reduce_3(const int* in, long long* out, int n) { sumOnHost(in, out, n); }
void reduce_4(const int* in, long long* out, int n) { sumOnHost(in, out, n); }
void reduce_5(const int* in, long long* out, int n) { sumOnHost(in, out, n); }
void reduce_6(const int* in, long long* out, int n) { sumOnHost(in, out, n); }
void reduce_7(const int* in, long long* out, int n) { sumOnHost(in, out, n); }
