#pragma once
// libcu++'s cuda::thread_scope, shared by the CPU backend's <cuda/barrier> and <cuda/atomic>.
// Unscoped, as in libcu++: code writes both cuda::thread_scope_block and
// cuda::thread_scope::thread_scope_block.

namespace cuda {
/// Which threads a synchronisation object serves.
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };
}  // namespace cuda
