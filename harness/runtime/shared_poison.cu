// The GPU half of shared_poison.hpp (the CPU executor poisons each block itself): one kernel that
// takes as much shared memory as a block may have, launched on a few blocks per SM, each storing
// the poison byte's words through a volatile pointer (a store nothing reads is otherwise removed).
#include <cuda_runtime.h>

#include "fills.hpp"
#include "shared_poison.hpp"
#include "task_markers.hpp"

namespace cugrade::runner {
namespace {

__global__ void poison_kernel(unsigned words, unsigned word) {
  extern __shared__ unsigned pool[];
  volatile unsigned* shared = pool;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) shared[i] = word;
}

/// The bytes of dynamic shared memory one block may take and the blocks to launch (four per SM,
/// so that every SM gets one whichever way the blocks are spread); 0 bytes when unknown.
struct PoisonShape {
  int bytes = 0;
  int blocks = 0;
};

PoisonShape poison_shape() {
  PoisonShape shape;
  int device = 0, bytes = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaFuncSetAttribute(poison_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) != cudaSuccess ||
      cudaFuncSetAttribute(poison_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                           cudaSharedmemCarveoutMaxShared) != cudaSuccess)
    return shape;
  shape.bytes = bytes;
  shape.blocks = 4 * sms;
  return shape;
}

}  // namespace

void poison_shared_memory(std::uint8_t byte) {
  if (task_markers_on()) return;
  static const PoisonShape shape = poison_shape();
  if (shape.bytes > 0) {
    poison_kernel<<<shape.blocks, 1024, static_cast<std::size_t>(shape.bytes)>>>(
        static_cast<unsigned>(shape.bytes / sizeof(unsigned)), byte * 0x01010101u);
    cudaDeviceSynchronize();
  }
  cudaGetLastError();  // a failed poison is no error of the student's call
}

}  // namespace cugrade::runner
