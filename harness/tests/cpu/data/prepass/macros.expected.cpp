#line 1 "macros.cu"
// Macros in the configuration and the arguments, and a launch inside a #define body.
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))
#define BLOCK 256
#define LAUNCH_SCALE(x, n) ::cugrade_cpu::launch(::cugrade_cpu::launch_config(DIV_UP(n, BLOCK), BLOCK), "scale", [&](auto&&... cugrade_a) { scale(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, x, n)

__global__ void scale(float* x, int n) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)  ::cugrade_cpu::rmw(x[i]) *= 2.0f;
}

void run(float* x, int n) {
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(DIV_UP(n, BLOCK), BLOCK), "scale", [&](auto&&... cugrade_a) { scale(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, x, n);
  LAUNCH_SCALE(x, n);
}
