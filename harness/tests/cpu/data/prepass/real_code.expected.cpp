#line 1 "real_code.cu"
// Forms of NVIDIA's own samples and blog code: `extern T __shared__` (threadFenceReduction),
// `static __shared__` (the shfl blog post), a kernel taken from an array of kernel pointers
// (the finite-difference post), and a launch inside a template whose kernel names its parameters.
__global__ void reduce_tail(float* out, unsigned n) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__);
  float* smem = ::cugrade_cpu::declared_dynamic_shared<float>("smem");
   __shared__ int partial[32]; ::cugrade_cpu::shared_declared(partial, "partial");
  partial[threadIdx.x % 32] = 0;
  smem[threadIdx.x] = n;
  __syncthreads();
  out[0] = smem[0] + partial[0];
}

__global__ void derivative_x(float* f) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__); f[threadIdx.x] = 0; }
__global__ void derivative_y(float* f) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__); f[threadIdx.x] = 1; }

template <unsigned Block> __global__ void scaled(float* f) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__);  ::cugrade_cpu::rmw(f[threadIdx.x]) *= Block; }

template <unsigned Block> void launch_scaled(float* f) { ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, Block), ::cugrade_cpu::kernel_name("scaled<Block>", __PRETTY_FUNCTION__), [&](auto&&... cugrade_a) { scaled<Block>(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, f); }

void run(float* f, int which) {
  void (*fpDeriv[2])(float*) = {derivative_x, derivative_y};
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 32), "fpDeriv[which]", [&](auto&&... cugrade_a) { fpDeriv[which](static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, f);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 32, 32 * sizeof(float)), "reduce_tail", [&](auto&&... cugrade_a) { reduce_tail(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, f, 4);
  launch_scaled<64>(f);
}
