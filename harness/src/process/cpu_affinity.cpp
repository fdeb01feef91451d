#include "process/cpu_affinity.hpp"

#include <vector>

namespace cugrade {

namespace {
/// The CPUs of `set`, in order.
std::vector<int> members(const cpu_set_t& set) {
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}
}  // namespace

cpu_set_t timing_cpus(const cpu_set_t& allowed, std::size_t lane, std::size_t lanes) {
  const std::vector<int> cpus = members(allowed);
  if (lane >= lanes || cpus.size() < 2 * lanes + 2) return allowed;
  cpu_set_t pair;
  CPU_ZERO(&pair);
  CPU_SET(cpus[cpus.size() - 1 - 2 * lane], &pair);
  CPU_SET(cpus[cpus.size() - 2 - 2 * lane], &pair);
  return pair;
}

cpu_set_t builder_cpus(const cpu_set_t& allowed, std::size_t lanes) {
  cpu_set_t builders = allowed;
  for (std::size_t lane = 0; lane < lanes; ++lane) {
    const cpu_set_t pair = timing_cpus(allowed, lane, lanes);
    if (CPU_EQUAL(&pair, &allowed)) return allowed;  // too few CPUs: nothing reserved
    for (int cpu : members(pair)) CPU_CLR(cpu, &builders);
  }
  return builders;
}

namespace {
/// The calling thread's CPUs; every CPU when they cannot be read.
cpu_set_t read_affinity() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) CPU_SET(cpu, &allowed);
  return allowed;
}
/// Read before main() runs, while the process has one thread and no pin.
const cpu_set_t startup_cpus = read_affinity();
}  // namespace

cpu_set_t allowed_cpus() { return startup_cpus; }

PinnedThread::PinnedThread(const cpu_set_t& cpus) {
  CPU_ZERO(&saved_);
  if (sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
  if (CPU_EQUAL(&saved_, &cpus)) return;
  pinned_ = sched_setaffinity(0, sizeof cpus, &cpus) == 0;
}

PinnedThread::~PinnedThread() {
  if (pinned_) sched_setaffinity(0, sizeof saved_, &saved_);
}

}  // namespace cugrade
