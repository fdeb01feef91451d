// cugrade-cpu-bench-barrier [threads] [barriers]: the cost of __syncthreads() on the CPU
// backend. One block of `threads` fibers passes `barriers` barriers; the time of a launch with
// no barrier is subtracted, and the rest is divided by threads × barriers (docs/cpu-backend.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

__global__ void barriers(int count, int* sink) {
  int local = 0;
  for (int i = 0; i < count; ++i) {
    local += i;
    __syncthreads();
  }
  if (local == -1) *sink = local;  // keeps the loop
}

double seconds_for(unsigned threads, int count, int* sink) {
  auto start = std::chrono::steady_clock::now();
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, threads), "barriers",
                        [&](auto&&... a) { barriers(a...); }, count, sink);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  int* sink = nullptr;
  cudaMalloc(&sink, sizeof(int));
  const int count = argc > 2 ? std::atoi(argv[2]) : 2000;
  std::printf("threads  barriers  ns per barrier per thread\n");
  for (unsigned threads : {32u, 128u, 256u, 1024u}) {
    if (argc > 1 && static_cast<unsigned>(std::atoi(argv[1])) != threads) continue;
    seconds_for(threads, 10, sink);  // warm-up: maps the fiber stacks
    // The minimum of each kind separately: on a shared machine a preempted launch without
    // barriers would otherwise make a difference of one pair negative.
    double with = 1e30, without = 1e30;
    for (int repeat = 0; repeat < 7; ++repeat) {
      with = std::min(with, seconds_for(threads, count, sink));
      without = std::min(without, seconds_for(threads, 0, sink));
    }
    std::printf("%7u  %8d  %.1f\n", threads, count, (with - without) / (static_cast<double>(threads) * count) * 1e9);
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
