#line 1 "extern_shared.cu"
// Dynamic shared memory: declared in a kernel (with alignment) and at file scope.

#define file_scope_buffer (::cugrade_cpu::dynamic_shared<float>())
#line 2 "extern_shared.cu"


__global__ void in_kernel(float* out) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__);
  unsigned char* raw = ::cugrade_cpu::declared_dynamic_shared<unsigned char>("raw");
  float* s = reinterpret_cast<float*>(raw);
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

template <class T> __global__ void typed(T* out) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__);
  T* buffer = ::cugrade_cpu::declared_dynamic_shared<T>("buffer");
  buffer[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = buffer[0] + file_scope_buffer[0];
}

void run(float* out) {
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 32, 32 * sizeof(float)), "in_kernel", [&](auto&&... cugrade_a) { in_kernel(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, out);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 32, 32 * sizeof(float)), ::cugrade_cpu::kernel_name("typed<float>", __PRETTY_FUNCTION__), [&](auto&&... cugrade_a) { typed<float>(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, out);
}
