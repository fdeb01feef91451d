#pragma once
// Turning a hardware fault in a kernel (SIGSEGV on a guard page, SIGFPE) into a CUDA error.
// While a worker runs a block, a fault jumps back to the block runner (siglongjmp), which
// abandons the block and reports the fault as a GPU reports an illegal address.
#include <csetjmp>
#include <string>

#include "block_runner.hpp"

namespace cugrade_cpu {

/// Installs the process-wide SIGSEGV/SIGBUS/SIGFPE handler unless it is in place already
/// (called at every launch; the handler it replaces gets host-side faults).
void ensure_fault_handler();

/// Gives the calling worker thread an alternate signal stack (a fiber that overflowed its
/// stack has none left to run the handler on).
void prepare_worker_for_faults();

/// From now on a fault on this thread jumps to `target`.
void arm_fault_jump(sigjmp_buf* target);

/// A fault on this thread is again fatal to the process.
void disarm_fault_jump();

/// The address of the fault that just jumped back on this thread.
const void* last_fault_address();

/// Whether that fault was a write (as far as the processor tells; false where it does not).
bool last_fault_was_write();

/// "thread (3,0,0) of block (1,0,0)": a CUDA thread as the fault messages name it.
std::string thread_in_block(const uint3& thread, const uint3& block);

/// The CUDA error for the fault that just jumped back on this thread, naming `kernel` and the
/// faulting CUDA thread (`thread` may be null) and, for memory, which allocation was overrun.
BlockFailure describe_fault(const char* kernel, const ThreadContext* thread);

}  // namespace cugrade_cpu
