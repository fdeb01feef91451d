// Why a second run, and why in a child: a write into the up to 15 bytes after an allocation's end
// (or the bytes before its start, up to its leading guard page) faults on no page, so the launch
// that made it has finished when its canary says so. Its line is found by running the launch
// again with the slack's page protected; a forked child does that on a copy of the memory, so
// what the second run writes, prints or breaks is never seen by the program, and the parent
// waits a bounded time. Only a launch that damaged a slack pays for it, once.
// Why single-stepping: the protected page also holds the array's last elements, which the
// kernel may read and write legitimately; each access to the page is let through for one
// instruction (the trap flag), and the slack compared after it.
#include "slack_watch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "fault_handler.hpp"
#include "stack_pool.hpp"

namespace cugrade_cpu {
namespace {

#if defined(__x86_64__)
constexpr long kTrapFlag = 0x100;  // EFLAGS.TF: a debug trap after the next instruction
constexpr int kWaitMilliseconds = 1000;
constexpr std::size_t kMostSlack = 4096;

// The child's watch; it has one thread, so its handlers need no locks.
struct Watch {
  char* page = nullptr;
  std::size_t page_bytes = 0;
  const unsigned char* slack = nullptr;
  std::size_t bytes = 0;
  unsigned char before[kMostSlack];
  void* step_pc = nullptr;
  int out = -1;
  struct sigaction segv{};  // the executor's own handler: a guard page stays the block's fault
};
Watch watch;

void on_watched_fault(int signal_number, siginfo_t* info, void* raw) {
  auto* context = static_cast<ucontext_t*>(raw);
  auto* address = static_cast<char*>(info->si_addr);
  if (address >= watch.page && address < watch.page + watch.page_bytes) {
    watch.step_pc = reinterpret_cast<void*>(context->uc_mcontext.gregs[REG_RIP]);
    mprotect(watch.page, watch.page_bytes, PROT_READ | PROT_WRITE);
    context->uc_mcontext.gregs[REG_EFL] |= kTrapFlag;
    return;
  }
  watch.segv.sa_sigaction(signal_number, info, raw);
}

void on_step(int, siginfo_t*, void* raw) {
  auto* context = static_cast<ucontext_t*>(raw);
  context->uc_mcontext.gregs[REG_EFL] &= ~kTrapFlag;
  if (std::memcmp(watch.slack, watch.before, watch.bytes) != 0) {
    SlackWrite found;
    found.pc = watch.step_pc;
    if (current_thread) {
      found.thread_idx = current_thread->thread_idx;
      found.block_idx = current_thread->block_idx;
    }
    [[maybe_unused]] auto written = write(watch.out, &found, sizeof found);
    _exit(0);
  }
  mprotect(watch.page, watch.page_bytes, PROT_NONE);
}

[[noreturn]] void run_watched(const GridShape& shape, const SlackDamage& damage, int out) {
  const int null = open("/dev/null", O_WRONLY);  // what the second run prints goes nowhere
  if (null >= 0) {
    dup2(null, 1);
    dup2(null, 2);
  }
  watch.page_bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  watch.page = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(damage.slack) & ~(watch.page_bytes - 1));
  watch.slack = damage.slack;
  watch.bytes = damage.bytes;
  std::memcpy(watch.before, damage.slack, damage.bytes);  // re-armed by damaged_slack
  watch.out = out;
  prepare_worker_for_faults();
  struct sigaction action{};
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  action.sa_sigaction = on_step;
  sigaction(SIGTRAP, &action, nullptr);
  action.sa_sigaction = on_watched_fault;
  sigaction(SIGSEGV, &action, &watch.segv);
  if (!(watch.segv.sa_flags & SA_SIGINFO)) _exit(1);
  if (mprotect(watch.page, watch.page_bytes, PROT_NONE) != 0) _exit(1);
  StackPool stacks(256 * 1024);
  BlockRunner runner(stacks);
  GridShape forward = shape;
  forward.reverse = false;
  const std::size_t gx = shape.grid.x, gy = shape.grid.y;
  // The last block first: a bounds check that is missing or off by one lets the last block's
  // threads write past the end.
  for (std::size_t id = gx * gy * shape.grid.z; id-- > 0;) {
    const uint3 block{static_cast<unsigned>(id % gx), static_cast<unsigned>(id / gx % gy),
                      static_cast<unsigned>(id / (gx * gy))};
    runner.run(forward, block);
  }
  _exit(1);
}
#endif

}  // namespace

std::optional<SlackWrite> find_slack_write(const GridShape& shape, const SlackDamage& damage) {
#if defined(__x86_64__)
  if (!damage.slack || damage.bytes == 0 || damage.bytes > kMostSlack) return std::nullopt;
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return std::nullopt;
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t child = fork();
  if (child == 0) {
    close(ends[0]);
    run_watched(shape, damage, ends[1]);
  }
  close(ends[1]);
  std::optional<SlackWrite> found;
  if (child > 0) {
    pollfd ready{ends[0], POLLIN, 0};
    SlackWrite write{};
    if (poll(&ready, 1, kWaitMilliseconds) > 0 && read(ends[0], &write, sizeof write) == sizeof write) found = write;
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
  }
  close(ends[0]);
  return found;
#else
  (void)shape;
  (void)damage;
  return std::nullopt;
#endif
}

}  // namespace cugrade_cpu
