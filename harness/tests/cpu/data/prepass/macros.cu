// Macros in the configuration and the arguments, and a launch inside a #define body.
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))
#define BLOCK 256
#define LAUNCH_SCALE(x, n) scale<<<DIV_UP(n, BLOCK), BLOCK>>>(x, n)

__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

void run(float* x, int n) {
  scale<<<DIV_UP(n, BLOCK), BLOCK>>>(x, n);
  LAUNCH_SCALE(x, n);
}
