// Template kernels: explicit arguments (with commas and a comparison inside parentheses),
// qualified names, and arguments deduced from the call as CUDA does.
#include <utility>

template <class T, int B> __global__ void fill(T* x, T v) { x[threadIdx.x % B] = v; }
template <bool Big> __global__ void flag(int* x) { x[0] = Big; }
template <class T> __global__ void deduce(T* x, T v) { x[0] = v; }
template <class P> __global__ void pairs(P* x) { (void)x; }
namespace kernels {
__global__ void inner(int* x) { x[0] = 1; }
}

template <int N>
void run(float* f, int* i, std::pair<int, int>* p) {
  fill<float, 256><<<1, 256>>>(f, 1.0f);
  flag<(N > 1)><<<1, 1>>>(i);
  deduce<<<1, 1>>>(f, 2.0f);
  pairs<std::pair<int, int>><<<1, 1>>>(p);
  kernels::inner<<<1, 1>>>(i);
  ::kernels::inner<<<1, 1>>>(i);
}
template void run<2>(float*, int*, std::pair<int, int>*);
