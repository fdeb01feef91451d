#line 1 "templates.cu"
// Template kernels: explicit arguments (with commas and a comparison inside parentheses),
// qualified names, and arguments deduced from the call as CUDA does.
#include <utility>

template <class T, int B> __global__ void fill(T* x, T v) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__); x[threadIdx.x % B] = v; }
template <bool Big> __global__ void flag(int* x) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__); x[0] = Big; }
template <class T> __global__ void deduce(T* x, T v) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__); x[0] = v; }
template <class P> __global__ void pairs(P* x) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__); (void)x; }
namespace kernels {
__global__ void inner(int* x) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__); x[0] = 1; }
}

template <int N>
void run(float* f, int* i, std::pair<int, int>* p) {
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 256), ::cugrade_cpu::kernel_name("fill<float, 256>", __PRETTY_FUNCTION__), [&](auto&&... cugrade_a) { fill<float, 256>(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, f, 1.0f);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 1), ::cugrade_cpu::kernel_name("flag<(N > 1)>", __PRETTY_FUNCTION__), [&](auto&&... cugrade_a) { flag<(N > 1)>(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, i);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 1), "deduce", [&](auto&&... cugrade_a) { deduce(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, f, 2.0f);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 1), ::cugrade_cpu::kernel_name("pairs<std::pair<int, int>>", __PRETTY_FUNCTION__), [&](auto&&... cugrade_a) { pairs<std::pair<int, int>>(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, p);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 1), "kernels::inner", [&](auto&&... cugrade_a) { kernels::inner(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, i);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 1), "::kernels::inner", [&](auto&&... cugrade_a) { ::kernels::inner(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, i);
}
template void run<2>(float*, int*, std::pair<int, int>*);
