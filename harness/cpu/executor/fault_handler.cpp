#include "fault_handler.hpp"

#include <signal.h>
#include <ucontext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "error_state.hpp"
#include "fault_site.hpp"
#include "memory_registry.hpp"
#include "stack_pool.hpp"

namespace cugrade_cpu {
namespace {

constinit thread_local sigjmp_buf* fault_target = nullptr;
constinit thread_local int fault_signal = 0;
constinit thread_local void* fault_address = nullptr;
constinit thread_local bool fault_was_write = false;
constinit thread_local int fault_code = 0;
constinit thread_local void* fault_pc = nullptr;  // the faulting instruction, for its line

constexpr int kSignals[3] = {SIGSEGV, SIGBUS, SIGFPE};
struct sigaction previous[3];

int slot(int signal_number) { return signal_number == SIGSEGV ? 0 : signal_number == SIGBUS ? 1 : 2; }

void on_fault(int signal_number, siginfo_t* info, void* raw_context) {
  if (sigjmp_buf* target = fault_target) {
    fault_target = nullptr;
    fault_signal = signal_number;
    fault_address = info->si_addr;
    fault_code = info->si_code;
#if defined(__x86_64__)
    // Bit 1 of the page-fault error code: the access was a write.
    auto* context = static_cast<ucontext_t*>(raw_context);
    fault_was_write = (context->uc_mcontext.gregs[REG_ERR] & 2) != 0;
    fault_pc = reinterpret_cast<void*>(context->uc_mcontext.gregs[REG_RIP]);
#else
    (void)raw_context;
    fault_was_write = false;
    fault_pc = nullptr;
#endif
    siglongjmp(*target, 1);
  }
  // Not inside a kernel: a host-side fault stays what it is. The handler that was there before
  // ours (or the default action, death by the signal) gets it when the instruction re-faults.
  sigaction(signal_number, &previous[slot(signal_number)], nullptr);
}

std::mutex install_mutex;

}  // namespace

// Checked before every launch, not installed once: a program (or a test framework) may install
// its own handlers after the first launch, and a fault in a kernel must still reach ours.
void ensure_fault_handler() {
  std::lock_guard lock(install_mutex);
  for (int i = 0; i < 3; ++i) {
    struct sigaction current{};
    sigaction(kSignals[i], nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_fault) continue;
    struct sigaction action{};
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(kSignals[i], &action, &previous[i]);
  }
}

namespace {

std::string triple(const uint3& v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

/// "; the write is at vecadd.cu:12" for the faulting instruction, "" without its line. The
/// harness quotes the line's text after it (pipeline/source_quotes.hpp).
std::string line_of_fault(const char* what) {
  const std::string site = source_site_of(fault_pc);
  return site.empty() ? std::string() : std::string("; the ") + what + " is at " + site;
}

}  // namespace

void prepare_worker_for_faults() {
  static constexpr std::size_t kAltStackBytes = 64 * 1024;
  stack_t alt{};
  alt.ss_sp = std::malloc(kAltStackBytes);  // lives as long as the worker thread
  alt.ss_size = kAltStackBytes;
  sigaltstack(&alt, nullptr);
}

void arm_fault_jump(sigjmp_buf* target) { fault_target = target; }

void disarm_fault_jump() { fault_target = nullptr; }

const void* last_fault_address() { return fault_address; }

bool last_fault_was_write() { return fault_was_write; }

std::string thread_in_block(const uint3& thread, const uint3& block) {
  return "thread " + triple(thread) + " of block " + triple(block);
}

BlockFailure describe_fault(const char* kernel, const ThreadContext* thread) {
  std::string who = thread ? " by " + thread_in_block(thread->thread_idx, thread->block_idx) : std::string();
  std::string in = " in kernel " + code_name(kernel) + who;
  if (fault_signal == SIGFPE)
    return {cudaErrorLaunchFailure,
            "integer division by zero" + in + " (a GPU returns an undefined value; check the divisor)" +
                line_of_fault("division")};
  if (is_stack_guard(fault_address))
    return {cudaErrorLaunchFailure,
            "stack overflow" + in + ": a CUDA thread used more stack than the CPU backend gives it "
            "(256 KiB); is there a very large local array?"};
  // Why SI_KERNEL means misaligned here: x86 raises a general-protection fault, which carries no
  // address, for an aligned SSE load or store (what float4/int4/double2 compile to) at an address
  // that is not a multiple of 16; the kernel reports it as SIGSEGV with si_addr 0 and SI_KERNEL.
  // A GPU stops such an access too, with cudaErrorMisalignedAddress.
  if (fault_signal == SIGSEGV && fault_code == SI_KERNEL)
    return {cudaErrorMisalignedAddress,
            "misaligned address" + in + ": a vector access (float4, int4, double2, ...) at an address "
            "that is not a multiple of its size (16 bytes), e.g. reinterpret_cast<float4*>(p + i) with "
            "i not a multiple of 4; a GPU stops with \"misaligned address\" too" + line_of_fault("access")};
  const char* access = fault_was_write ? "write" : "read";
  const std::string line = line_of_fault(access);
  auto address = reinterpret_cast<std::uintptr_t>(fault_address);
  std::string where = describe_device_address(fault_address);
  if (!where.empty())
    return {cudaErrorIllegalAddress,
            std::string("out-of-bounds global memory ") + access + in + " at " + where + line};
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(address));
  if (address < 65536)
    return {cudaErrorIllegalAddress,
            std::string("null pointer ") + access + in + " (address " + hex + ")" + line};
  return {cudaErrorIllegalAddress, std::string("illegal memory ") + access + in + " at address " + hex +
                                       ", which is not inside any cudaMalloc allocation" + line};
}

}  // namespace cugrade_cpu
