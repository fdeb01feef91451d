// Launch forms: two to four configuration values, no arguments, a statement on one line.
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
__global__ void nothing() {}

void run(float* x, int n, cudaStream_t stream) {
  scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n);
  scale<<<dim3(4, 1), dim3(64), 0>>>(x, 2.0f, n);
  scale<<<1, 32, 128, stream>>>(x, 2.0f, n);
  nothing<<<1, 1>>>();
  if (n > 0) nothing <<< 1 , 1 >>> ( );
}
