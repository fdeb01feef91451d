// Static __shared__ declarations: each gets the call that poisons it once per block (file
// scope: a registration). Several declarators, 2-D arrays, template types, volatile, scalars.
#include <utility>

#define TILE 16
__shared__ int file_scope_counter;

template <class T, int N> struct Tile { T v[N][N + 1]; };

template <class T> __global__ void kernel(T* out, int n) {
  __shared__ float a[TILE][TILE + 1], b[TILE];
  __shared__ Tile<T, 4> tile;
  volatile __shared__ int flag;
  __shared__ std::pair<int, int>* pointer;
  if (threadIdx.x == 0) flag = 0;
  a[threadIdx.y][threadIdx.x] = b[threadIdx.x] = tile.v[0][0] = 1;
  pointer = nullptr;
  __syncthreads();
  out[0] = a[0][0] + b[0] + file_scope_counter + flag + n;
}

void run(float* out) { kernel<float><<<1, dim3(TILE, TILE)>>>(out, 3); }
