// Dynamic shared memory: declared in a kernel (with alignment) and at file scope.
extern __shared__ float file_scope_buffer[];

__global__ void in_kernel(float* out) {
  extern __shared__ __align__(16) unsigned char raw[];
  float* s = reinterpret_cast<float*>(raw);
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

template <class T> __global__ void typed(T* out) {
  extern __shared__ T buffer[];
  buffer[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = buffer[0] + file_scope_buffer[0];
}

void run(float* out) {
  in_kernel<<<1, 32, 32 * sizeof(float)>>>(out);
  typed<float><<<1, 32, 32 * sizeof(float)>>>(out);
}
