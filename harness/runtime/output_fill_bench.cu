// Benchmark, side by side in one run: an f32 output's fill (fills.hpp) as the runner wrote it
// before (cudaMemset of 0xFF, then cudaMemset2D of one-byte rows four bytes apart for the third
// byte) and as it writes it now (fill_words: one kernel). Both fills must leave the same bytes.
//   bench-output-fill            prints a Markdown table: size, each way's median, their ratio
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "fills.hpp"
#include "word_fill.hpp"

namespace {

void check(cudaError_t error, const char* what) {
  if (error == cudaSuccess) return;
  std::fprintf(stderr, "bench-output-fill: %s: %s\n", what, cudaGetErrorString(error));
  std::exit(1);
}

/// The fill as the runner wrote it before word_fill.cu.
void fill_bytewise(void* data, std::size_t bytes) {
  check(cudaMemset(data, cugrade::output_fill_byte, bytes), "cudaMemset");
  check(cudaMemset2D(static_cast<char*>(data) + 2, 4, cugrade::output_fill_f32_byte2, 1, bytes / 4), "cudaMemset2D");
}

void fill_wordwise(void* data, std::size_t bytes) {
  check(cugrade::runner::fill_words(data, bytes / 4, cugrade::output_fill_f32_word), "fill_words");
}

/// Median milliseconds of `runs` calls of `fill` on `data`, each bracketed by events.
template <class Fill>
float median_ms(Fill fill, void* data, std::size_t bytes, int runs) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<float> times;
  for (int i = 0; i < runs; ++i) {
    check(cudaEventRecord(start), "cudaEventRecord");
    fill(data, bytes);
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("GPU: %s\n\n| f32 output | cudaMemset + cudaMemset2D (ms) | fill_words (ms) | before / now |\n|---|---|---|---|\n",
              prop.name);
  for (std::size_t mib : {1, 16, 64, 256}) {
    const std::size_t bytes = mib << 20;
    void* a = nullptr;
    void* b = nullptr;
    check(cudaMalloc(&a, bytes), "cudaMalloc");
    check(cudaMalloc(&b, bytes), "cudaMalloc");
    fill_bytewise(a, bytes);
    fill_wordwise(b, bytes);
    std::vector<unsigned char> x(bytes), y(bytes);
    check(cudaMemcpy(x.data(), a, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaMemcpy(y.data(), b, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (std::memcmp(x.data(), y.data(), bytes) != 0) {
      std::fprintf(stderr, "bench-output-fill: the two fills differ at %zu MiB\n", mib);
      return 1;
    }
    const float before = median_ms(fill_bytewise, a, bytes, 11);
    const float now = median_ms(fill_wordwise, b, bytes, 11);
    std::printf("| %zu MiB | %.3f | %.3f | %.1f |\n", mib, before, now, before / now);
    cudaFree(a);
    cudaFree(b);
  }
  return 0;
}
