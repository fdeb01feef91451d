#line 1 "basic.cu"
// Launch forms: two to four configuration values, no arguments, a statement on one line.
__global__ void scale(float* x, float a, int n) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)  ::cugrade_cpu::rmw(x[i]) *= a;
}
__global__ void nothing() { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__);}

void run(float* x, int n, cudaStream_t stream) {
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config((n + 255) / 256, 256), "scale", [&](auto&&... cugrade_a) { scale(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, x, 2.0f, n);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(dim3(4, 1), dim3(64), 0), "scale", [&](auto&&... cugrade_a) { scale(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, x, 2.0f, n);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 32, 128, stream), "scale", [&](auto&&... cugrade_a) { scale(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, x, 2.0f, n);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 1), "nothing", [&](auto&&... cugrade_a) { nothing(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); });
  if (n > 0) ::cugrade_cpu::launch(::cugrade_cpu::launch_config( 1 , 1 ), "nothing", [&](auto&&... cugrade_a) { nothing(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); });
}
