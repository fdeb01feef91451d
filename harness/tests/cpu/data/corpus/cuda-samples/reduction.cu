// Corpus item (reduction): Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu and
// reduction.cpp, as the sample runs them: getNumBlocksAndThreads and benchmarkReduce<int> with
// the sample's defaults (256 threads at most, 64 blocks at most for kernel 6, the block sums
// reduced on the GPU down to one). The sample's kernels 0..6 are the course's reduce1..reduce7.
#include "common_headers.cuh"
#include "Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu"
#define main reduction_sample_main
#include "Samples/2_Concepts_and_Techniques/reduction/reduction.cpp"
#undef main

static void sample_reduce(const int* in, long long* out, int n, int whichKernel) {
  const int maxThreads = 256, maxBlocks = 64;
  int numBlocks = 0, numThreads = 0;
  getNumBlocksAndThreads(whichKernel, n, maxBlocks, maxThreads, numBlocks, numThreads);
  int* h_odata = (int*)malloc(numBlocks * sizeof(int));
  int* d_odata = nullptr;
  cudaMalloc((void**)&d_odata, numBlocks * sizeof(int));
  StopWatchInterface* timer = nullptr;
  sdkCreateTimer(&timer);
  long long sum = benchmarkReduce<int>(n, numThreads, numBlocks, maxThreads, maxBlocks, whichKernel, 1, false, 1,
                                       timer, h_odata, const_cast<int*>(in), d_odata);
  sdkDeleteTimer(&timer);
  cudaMemcpy(out, &sum, sizeof sum, cudaMemcpyHostToDevice);
  cudaFree(d_odata);
  free(h_odata);
}
void reduce_1(const int* in, long long* out, int n) { sample_reduce(in, out, n, 0); }
void reduce_2(const int* in, long long* out, int n) { sample_reduce(in, out, n, 1); }
void reduce_3(const int* in, long long* out, int n) { sample_reduce(in, out, n, 2); }
void reduce_4(const int* in, long long* out, int n) { sample_reduce(in, out, n, 3); }
void reduce_5(const int* in, long long* out, int n) { sample_reduce(in, out, n, 4); }
void reduce_6(const int* in, long long* out, int n) { sample_reduce(in, out, n, 5); }
void reduce_7(const int* in, long long* out, int n) { sample_reduce(in, out, n, 6); }
