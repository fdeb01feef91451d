#line 1 "static_shared.cu"
// Static __shared__ declarations: each gets the call that poisons it once per block (file
// scope: a registration). Several declarators, 2-D arrays, template types, volatile, scalars.
#include <utility>

#define TILE 16
__shared__ int file_scope_counter; [[maybe_unused]] static const bool cugrade_shared_file_scope_counter_6_578139 = ::cugrade_cpu::register_file_scope_shared([]() { return ::cugrade_cpu::shared_extent(file_scope_counter); }, "file_scope_counter");

template <class T, int N> struct Tile { T v[N][N + 1]; };

template <class T> __global__ void kernel(T* out, int n) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__);
  __shared__ float a[TILE][TILE + 1], b[TILE]; ::cugrade_cpu::shared_declared(a, "a"); ::cugrade_cpu::shared_declared(b, "b");
  __shared__ Tile<T, 4> tile; ::cugrade_cpu::shared_declared(tile, "tile");
  volatile __shared__ int flag; ::cugrade_cpu::shared_declared(flag, "flag");
  __shared__ std::pair<int, int>* pointer; ::cugrade_cpu::shared_declared(pointer, "pointer");
  if (threadIdx.x == 0) flag = 0;
  a[threadIdx.y][threadIdx.x] = b[threadIdx.x] = tile.v[0][0] = 1;
  pointer = nullptr;
  __syncthreads();
  out[0] = a[0][0] + b[0] + file_scope_counter + flag + n;
}

void run(float* out) { ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, dim3(TILE, TILE)), ::cugrade_cpu::kernel_name("kernel<float>", __PRETTY_FUNCTION__), [&](auto&&... cugrade_a) { kernel<float>(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, out, 3); }
