// Non-atomic updates of global memory by several threads of one launch (read_modify_write.hpp).
// Why a table of fixed size and not shadow memory per allocation: the runner's address space is
// bounded (run_job's cpu_runner_address_space), and a shadow as large as every allocation could
// break a case that fits today. The table is direct-mapped and lossy: an entry keeps the full
// address it describes, so a collision only forgets an earlier update (a race may be missed,
// never invented). An entry is locked by the low bit of its address while it is read and written,
// because the blocks of a launch run on several workers at once.
#include "global_updates.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cugrade_cpu/read_modify_write.hpp"
#include "error_state.hpp"
#include "fault_handler.hpp"
#include "global_race.hpp"
#include "memory_registry.hpp"
#include "source_site.hpp"

namespace cugrade_cpu {

constinit GlobalSpan global_span;

namespace {

struct alignas(64) Entry {
  std::atomic<std::uintptr_t> key{0};  ///< the address described (| 1 while locked); 0: none
  std::uint32_t launch = 0;            ///< the launch it was updated in
  std::uint32_t barriers = 0;          ///< its block's barrier count then (low bits)
  std::uint64_t thread = 0;            ///< ThreadContext::grid_rank of the thread
  std::source_location where;
  const char* op = "";
};

constexpr unsigned table_bits = 16;  // 65536 entries of 64 bytes: 4 MiB, made at the first update

Entry* table() {
  static std::once_flag once;
  static Entry* entries = nullptr;
  std::call_once(once, [] { entries = new Entry[std::size_t{1} << table_bits]; });
  return entries;
}

// Set by begin_global_updates before the workers start, read by them during the launch.
std::uint32_t launch_number = 0;
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
dim3 launch_grid, launch_block;
std::uint64_t threads_per_block = 1;

bool in_global_memory(std::uintptr_t address, std::size_t size) {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), address,
                             [](std::uintptr_t a, const auto& range) { return a < range.first; });
  if (it == ranges.begin()) return false;
  --it;
  return address >= it->first && address + size <= it->second;
}

// "thread (3,0,0) of block (1,0,0)" for a grid rank of the running launch.
std::string thread_named(std::uint64_t rank) {
  const std::uint64_t block = rank / threads_per_block, thread = rank % threads_per_block;
  const std::uint64_t bx = launch_block.x, by = launch_block.y, gx = launch_grid.x, gy = launch_grid.y;
  // Each index fits its dimension (a CUDA dimension is an unsigned int).
  const auto index = [](std::uint64_t x, std::uint64_t y, std::uint64_t z) {
    return uint3{static_cast<unsigned>(x), static_cast<unsigned>(y), static_cast<unsigned>(z)};
  };
  return thread_in_block(index(thread % bx, thread / bx % by, thread / (bx * by)),
                         index(block % gx, block / gx % gy, block / (gx * gy)));
}

// What to write instead of a non-atomic `op`.
std::string remedy(std::string_view op) {
  if (op == "+=") return "use atomicAdd";
  if (op == "++") return "use atomicAdd(&x, 1)";
  if (op == "-=") return "use atomicAdd of the negated value (atomicSub for integers)";
  if (op == "--") return "use atomicSub(&x, 1)";
  if (op == "^=") return "use atomicXor";
  return "use an atomic (an atomicCAS loop for " + std::string(op) + ")";
}

[[noreturn]] void report_race(const void* address, const Entry& earlier, std::uint64_t me, const char* op,
                              const std::source_location& where) {
  BlockRunner* runner = BlockRunner::current();
  std::string sites = site(where);
  if (site(earlier.where) != sites) sites += ", and " + site(earlier.where) + " in the other thread";
  const std::string element = describe_global_element(address);
  runner->fail(std::string(::cugrade::global_race_message_start) + " in kernel " + code_name(runner->kernel()) +
               " (" + sites + "): " + thread_named(me) + " and " + thread_named(earlier.thread) +
               " both update one address with a non-atomic read-modify-write (`" + op +
               "`), so on a GPU updates are lost — " + remedy(op) + ", or give each thread an element of its own" +
               (element.empty() ? std::string() : "; the address: " + element));
}

}  // namespace

void begin_global_updates(const GridShape& shape) {
  ranges = global_ranges();
  ++launch_number;
  launch_grid = shape.grid;
  launch_block = shape.block;
  threads_per_block = std::max<std::uint64_t>(1, std::uint64_t{shape.block.x} * shape.block.y * shape.block.z);
  global_span = ranges.empty() ? GlobalSpan{} : GlobalSpan{ranges.front().first, ranges.back().second - ranges.front().first};
}

void end_global_updates() { global_span = GlobalSpan{}; }

void note_global_update(const void* pointer, std::size_t size, const char* op, const std::source_location& where) {
  ThreadContext* me = current_thread;
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  // Outside a kernel (host code), at an odd address (the lock bit), or not in global memory: nothing to watch.
  if (!me || (address & 3u) != 0 || !in_global_memory(address, size)) return;
  const std::uint32_t barriers = me->barriers ? static_cast<std::uint32_t>(*me->barriers) : 0;
  Entry& e = table()[((address >> 2) * 0x9E3779B97F4A7C15ull) >> (64 - table_bits)];
  std::uintptr_t seen = e.key.load(std::memory_order_relaxed);
  for (int spins = 0;; ++spins) {
    if ((seen & 1u) == 0 && e.key.compare_exchange_weak(seen, seen | 1u, std::memory_order_acquire))
      break;
    if (spins > 64) std::this_thread::yield();
    seen = e.key.load(std::memory_order_relaxed);
  }
  // A race: this address was updated in this launch by another thread, not before a barrier of
  // this thread's own block (which orders the two), and this thread holds no lock that may order
  // them (an atomicCAS or atomicExch of its own).
  bool race = false;
  Entry earlier;
  if (seen == address && e.launch == launch_number && e.thread != me->grid_rank) {
    const bool same_block = e.thread / threads_per_block == me->grid_rank / threads_per_block;
    race = !(same_block && e.barriers != barriers) && me->exchanges == 0;
    earlier.thread = e.thread;
    earlier.where = e.where;
  }
  e.launch = launch_number;
  e.barriers = barriers;
  e.thread = me->grid_rank;
  e.where = where;
  e.op = op;
  e.key.store(address, std::memory_order_release);
  if (race) report_race(pointer, earlier, me->grid_rank, op, where);
}

}  // namespace cugrade_cpu
