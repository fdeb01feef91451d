// Device memory of the CPU backend. Why each allocation gets its own pages, ending exactly at a
// PROT_NONE guard page: a kernel that reads or writes past the end of an array faults on the
// very first byte out of bounds (up to the 16-byte alignment CUDA code relies on for float4),
// and the fault handler can say which allocation was overrun. Freed allocations keep their
// address range, inaccessible, so a use after cudaFree is recognised too.
// Why each allocation also sits alone in a slot of a far zone of the address space, with at
// least 1 GiB left unmapped on either side: an index far out of bounds (a megabyte past C, a page
// before A) would otherwise land in whatever the process mapped next to the array (another
// array, a fiber's stack, malloc's heap) and change it silently. In the zone every address
// within an allocation's reach that is not the allocation itself is mapped by nothing, so the
// access faults and is blamed on the allocation whose reach it lies in. Unmapped address space
// costs nothing and is not counted by the runner's RLIMIT_AS, unlike a PROT_NONE reservation.
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "api_failure_text.hpp"
#include "cugrade_cpu/driver_api.hpp"
#include "cugrade_cpu/runtime_api.hpp"
#include "error_state.hpp"
#include "fills.hpp"
#include "memory_registry.hpp"

namespace cugrade_cpu {
namespace {

enum class Kind { device, host, managed, symbol };

struct Allocation {
  std::uintptr_t reach_begin = 0;  ///< first address blamed on this allocation (its slot)
  std::uintptr_t reach_end = 0;    ///< one past the last
  char* map = nullptr;           ///< start of the mapping (leading guard page)
  std::size_t map_bytes = 0;
  char* ptr = nullptr;           ///< what the program got
  std::size_t bytes = 0;
  int ordinal = 0;
  Kind kind = Kind::device;
  bool freed = false;
  std::string name;  ///< the array's name when the runner placed it (cugrade_cpu_name_memory), else ""
};

std::mutex mutex;
int allocation_count = 0;
std::size_t bytes_in_use = 0;

// Keyed by the reach's start; reaches never overlap.
std::map<std::uintptr_t, Allocation>& allocations() {
  static auto* table = new std::map<std::uintptr_t, Allocation>();
  return *table;
}

std::size_t page() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

std::size_t round_up(std::size_t v, std::size_t to) { return (v + to - 1) / to * to; }

// The allocation whose reach (its slot: the mapping, guard pages and the unmapped space around
// them) contains `address`; caller holds mutex.
Allocation* find(const void* address) {
  auto a = reinterpret_cast<std::uintptr_t>(address);
  auto& table = allocations();
  auto it = table.upper_bound(a);
  if (it == table.begin()) return nullptr;
  --it;
  Allocation& found = it->second;
  return a < found.reach_end ? &found : nullptr;
}

// The zone of device allocations: from 16 TiB to 96 TiB, far below where Linux maps libraries,
// thread stacks and malloc's arenas (just under the top of the 128 TiB user space) and far above
// the program and its heap.
constexpr std::uintptr_t kZoneBegin = std::uintptr_t{16} << 40;
constexpr std::uintptr_t kZoneEnd = std::uintptr_t{96} << 40;
constexpr std::size_t kMinReach = std::size_t{1} << 30;
std::uintptr_t next_slot = kZoneBegin;  // under mutex

// Maps `map_bytes` in a slot of its own with `reach` unmapped bytes on either side; returns the
// mapping and the slot, or MAP_FAILED. Where the zone is used up (tens of thousands of
// allocations) or something else holds a slot, the mapping goes where the kernel puts it, with
// only its guard pages for reach.
void* map_in_zone(std::size_t map_bytes, std::size_t reach, std::uintptr_t& slot_begin, std::uintptr_t& slot_end) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const std::uintptr_t slot = next_slot;
    const std::uintptr_t end = slot + reach + map_bytes + reach;
    if (end > kZoneEnd || end < slot) break;
    next_slot = end;
    void* at = reinterpret_cast<void*>(slot + reach);
    void* map = mmap(at, map_bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (map == at) {
      slot_begin = slot;
      slot_end = end;
      return map;
    }
    if (map != MAP_FAILED) munmap(map, map_bytes);  // a kernel that ignored the flag: not ours to keep
  }
  void* map = mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map != MAP_FAILED) {
    slot_begin = reinterpret_cast<std::uintptr_t>(map);
    slot_end = slot_begin + map_bytes;
  }
  return map;
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::device: return "cudaMalloc";
    case Kind::host: return "cudaMallocHost";
    case Kind::managed: return "cudaMallocManaged";
    case Kind::symbol: return "__device__ variable";
  }
  return "cudaMalloc";
}

std::size_t device_capacity() {
  struct sysinfo info{};
  sysinfo(&info);
  return static_cast<std::size_t>(info.totalram) * info.mem_unit / 2;
}

// The canary byte at offset i of an allocation's alignment slack (the up to 15 bytes between its
// end and the guard page). Why a canary: a write there faults on no page, and a GPU tolerates it
// silently (its allocations are rounded up further), but it is out of bounds all the same, and
// compute-sanitizer reports it on a GPU.
unsigned char canary(std::size_t i) { return static_cast<unsigned char>(0xA5 ^ (i * 29)); }

// The bytes between the leading guard page and the allocation's start (a size that is not a
// multiple of the page leaves up to a page less 16 bytes there): a write to A[-1] lands in them.
std::size_t leading_slack(const Allocation& a) {
  return a.map ? static_cast<std::size_t>(a.ptr - (a.map + page())) : 0;
}

void arm_canary(const Allocation& a) {
  const std::size_t slack = round_up(a.bytes, 16) - a.bytes;
  for (std::size_t i = 0; i < slack; ++i) a.ptr[a.bytes + i] = static_cast<char>(canary(i));
  const std::size_t lead = leading_slack(a);
  for (std::size_t i = 0; i < lead; ++i) a.ptr[-1 - static_cast<std::ptrdiff_t>(i)] = static_cast<char>(canary(i));
}

// Why fresh cudaMalloc memory is filled: zeros (what mmap gives) would let a kernel that adds into
// an array it never zeroed pass, and make "copied back from memory no kernel wrote" look like
// "computed zero". The fill is a 32-bit word no result is likely to hold and that differs from
// the runner's own output fill (every byte 0xFF), so a report can tell which one an output
// still holds: a signalling NaN as float, -5921371 as int (harness/runtime/fills.hpp).
void fill_fresh(char* p, std::size_t bytes) {
  const std::uint32_t word = ::cugrade::fresh_device_fill_word;
  std::size_t i = 0;
  for (; i + 4 <= bytes; i += 4) std::memcpy(p + i, &word, 4);
  std::memcpy(p + i, &word, bytes - i);
}

cudaError_t allocate(void** pointer, std::size_t bytes, Kind kind) {
  if (!pointer) return api_result(cudaErrorInvalidValue);
  *pointer = nullptr;
  if (cudaError_t sticky = sticky_error()) return sticky;
  if (bytes == 0) return cudaSuccess;
  std::lock_guard lock(mutex);
  if (bytes > device_capacity() - std::min(bytes_in_use, device_capacity()))
    return api_result(cudaErrorMemoryAllocation);
  const std::size_t aligned = round_up(bytes, 16);
  const std::size_t data = round_up(aligned, page());
  const std::size_t map_bytes = data + 2 * page();
  const std::size_t reach = std::max(kMinReach, round_up(2 * data, page()));
  std::uintptr_t slot_begin = 0, slot_end = 0;
  void* map = map_in_zone(map_bytes, reach, slot_begin, slot_end);
  if (map == MAP_FAILED) return api_result(cudaErrorMemoryAllocation);
  char* base = static_cast<char*>(map);
  mprotect(base, page(), PROT_NONE);
  mprotect(base + page() + data, page(), PROT_NONE);
  Allocation a{slot_begin, slot_end, base, map_bytes, base + page() + data - aligned, bytes, ++allocation_count, kind, false};
  allocations()[slot_begin] = a;
  if (kind == Kind::device) {
    fill_fresh(a.ptr, bytes);
    arm_canary(a);
  }
  bytes_in_use += bytes;
  *pointer = a.ptr;
  return cudaSuccess;
}

cudaError_t release(void* pointer, Kind kind) {
  if (!pointer) return cudaSuccess;
  if (cudaError_t sticky = sticky_error()) return sticky;
  std::lock_guard lock(mutex);
  Allocation* a = find(pointer);
  if (!a || a->freed || a->ptr != pointer || (a->kind == Kind::host) != (kind == Kind::host)) {
    cugrade::runner::PointerFacts facts;
    facts.freed = a && a->freed;
    facts.device = a && !a->freed;
    facts.known = facts.device;
    return record_api_error(cudaErrorInvalidValue, kind == Kind::host ? "cudaFreeHost" : "cudaFree",
                            cugrade::runner::free_failure_reason(facts));
  }
  a->freed = true;
  bytes_in_use -= a->bytes;
  mprotect(a->map, a->map_bytes, PROT_NONE);
  madvise(a->map, a->map_bytes, MADV_DONTNEED);  // give the memory back, keep the addresses
  return cudaSuccess;
}

bool inside(const void* pointer, std::size_t bytes) {
  std::lock_guard lock(mutex);
  const Allocation* a = find(pointer);
  auto* p = static_cast<const char*>(pointer);
  return a && !a->freed && p >= a->ptr && bytes <= a->bytes && p - a->ptr <= static_cast<std::ptrdiff_t>(a->bytes - bytes);
}

std::string ordinal(int n) {
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

}  // namespace

bool is_device_range(const void* pointer, std::size_t bytes) { return inside(pointer, bytes); }

}  // namespace cugrade_cpu

// The runner names the arrays it places (check_task.cpp), so that a fault names the array as the
// student knows it. A C name: the runner declares it without the executor's headers.
extern "C" void cugrade_cpu_name_memory(const void* pointer, const char* name) {
  std::lock_guard lock(cugrade_cpu::mutex);
  if (cugrade_cpu::Allocation* a = cugrade_cpu::find(pointer); a && a->ptr == pointer && name) a->name = name;
}

namespace cugrade_cpu {

bool freed_memory(const void* pointer) {
  std::lock_guard lock(mutex);
  const Allocation* a = find(pointer);
  auto* p = static_cast<const char*>(pointer);
  return a && a->freed && p >= a->ptr && p < a->ptr + a->bytes;
}

// Memory a kernel can have written, as a copy's end: cudaMalloc'd, managed or a __device__
// variable, not cudaMallocHost's pinned host memory (host code fills that).
bool kernel_memory(const void* pointer) {
  std::lock_guard lock(mutex);
  const Allocation* a = find(pointer);
  auto* p = static_cast<const char*>(pointer);
  return a && !a->freed && a->kind != Kind::host && p >= a->ptr && p < a->ptr + a->bytes;
}

void register_symbol(const void* address, std::size_t bytes) {
  std::lock_guard lock(mutex);
  auto key = reinterpret_cast<std::uintptr_t>(address);
  auto* p = static_cast<char*>(const_cast<void*>(address));
  if (!find(address)) allocations()[key] = Allocation{key, key + bytes, nullptr, bytes, p, bytes, 0, Kind::symbol, false};
}

/// How messages name an allocation: "`B` (4000 bytes)" for an array the runner placed and named,
/// as the GPU's sanitizer reports name it (in backquotes: an array may be named `in`); else "a 4000-byte cudaMalloc allocation (the 2nd)".
std::string allocation_text(const Allocation& a) {
  if (!a.name.empty()) return "`" + a.name + "` (" + std::to_string(a.bytes) + (a.bytes == 1 ? " byte)" : " bytes)");
  return "a " + std::to_string(a.bytes) + "-byte " + kind_name(a.kind) +
         (a.ordinal > 0 ? " allocation (the " + ordinal(a.ordinal) + ")" : std::string(" allocation"));
}

std::string describe_device_address(const void* address) {
  std::lock_guard lock(mutex);
  const Allocation* a = find(address);
  if (!a) return {};
  auto* p = static_cast<const char*>(address);
  std::string what = allocation_text(*a);
  if (a->freed && p >= a->ptr && p < a->ptr + a->bytes) return "inside " + what + " that was already released by cudaFree";
  if (a->freed) what += ", already released by cudaFree";
  if (p >= a->ptr + a->bytes) {
    const auto past = p - (a->ptr + a->bytes);
    return "byte offset " + std::to_string(p - a->ptr) + " of " + what + ", " +
           (past == 0 ? std::string("just past its end") : std::to_string(past) + " bytes past its end");
  }
  return std::to_string(a->ptr - p) + " bytes before the start of " + what;
}

std::vector<std::pair<std::uintptr_t, std::uintptr_t>> global_ranges() {
  std::lock_guard lock(mutex);
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
  for (const auto& [key, a] : allocations()) {
    if (a.freed || a.bytes == 0) continue;
    const auto begin = reinterpret_cast<std::uintptr_t>(a.ptr);
    ranges.emplace_back(begin, begin + a.bytes);
  }
  return ranges;  // keyed by the reach's start, and each allocation lies inside its reach
}

std::string describe_global_element(const void* address) {
  std::lock_guard lock(mutex);
  const Allocation* a = find(address);
  auto* p = static_cast<const char*>(address);
  if (!a || p < a->ptr || p >= a->ptr + a->bytes) return {};
  return "byte offset " + std::to_string(p - a->ptr) + " of " + allocation_text(*a);
}

SlackDamage damaged_slack() {
  std::lock_guard lock(mutex);
  for (const auto& [key, a] : allocations()) {
    // Only cudaMalloc memory: host code writes pinned and managed memory too, and a damaged
    // canary there need not be a kernel's doing.
    if (a.freed || a.kind != Kind::device) continue;
    const std::string what = " of " + allocation_text(a);
    const std::size_t slack = round_up(a.bytes, 16) - a.bytes;
    const auto* bytes = reinterpret_cast<const unsigned char*>(a.ptr);
    for (std::size_t i = 0; i < slack; ++i) {
      if (static_cast<unsigned char>(a.ptr[a.bytes + i]) == canary(i)) continue;
      arm_canary(a);
      return {"byte offset " + std::to_string(a.bytes + i) + what + ", " + std::to_string(i) + " bytes past its end",
              bytes + a.bytes, slack};
    }
    const std::size_t lead = leading_slack(a);
    for (std::size_t i = lead; i-- > 0;) {  // the farthest damaged byte first: where the write began
      if (static_cast<unsigned char>(a.ptr[-1 - static_cast<std::ptrdiff_t>(i)]) == canary(i)) continue;
      arm_canary(a);
      return {std::to_string(i + 1) + " bytes before the start" + what, bytes - lead, lead};
    }
  }
  return {};
}

bool check_pointer_argument(const char* kernel, int index, const void* pointer) {
  if (!pointer) return true;
  std::string problem;
  {
    std::lock_guard lock(mutex);
    const Allocation* a = find(pointer);
    if (a && !a->freed) return true;
    char hex[32];
    std::snprintf(hex, sizeof hex, "%p", pointer);
    problem = a ? std::string("memory already released by cudaFree")
                : std::string("host memory (") + hex + "), not memory from cudaMalloc";
  }
  record_sticky_error(cudaErrorIllegalAddress,
                      "kernel " + code_name(kernel) + " was launched with argument " +
                          std::to_string(index) + " pointing to " + problem +
                          "; a GPU cannot access it (an illegal memory access)");
  return false;
}

}  // namespace cugrade_cpu

using cugrade_cpu::api_result;

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  return cugrade_cpu::allocate(pointer, bytes, cugrade_cpu::Kind::device);
}
cudaError_t cudaMallocManaged(void** pointer, std::size_t bytes, unsigned int) {
  return cugrade_cpu::allocate(pointer, bytes, cugrade_cpu::Kind::managed);
}
cudaError_t cudaMallocHost(void** pointer, std::size_t bytes) {
  return cugrade_cpu::allocate(pointer, bytes, cugrade_cpu::Kind::host);
}
cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned int) {
  return cugrade_cpu::allocate(pointer, bytes, cugrade_cpu::Kind::host);
}
cudaError_t cudaFree(void* pointer) { return cugrade_cpu::release(pointer, cugrade_cpu::Kind::device); }
cudaError_t cudaFreeHost(void* pointer) { return cugrade_cpu::release(pointer, cugrade_cpu::Kind::host); }

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  std::size_t total = cugrade_cpu::device_capacity();
  std::lock_guard lock(cugrade_cpu::mutex);
  if (free_bytes) *free_bytes = total - std::min(total, cugrade_cpu::bytes_in_use);
  if (total_bytes) *total_bytes = total;
  return cudaSuccess;
}

CUresult cuMemGetAddressRange(CUdeviceptr* base, std::size_t* size, CUdeviceptr address) {
  std::lock_guard lock(cugrade_cpu::mutex);
  const cugrade_cpu::Allocation* a = cugrade_cpu::find(reinterpret_cast<const void*>(address));
  const auto* p = reinterpret_cast<const char*>(address);
  if (!a || a->freed || p < a->ptr || p >= a->ptr + a->bytes) return CUDA_ERROR_NOT_FOUND;
  if (base) *base = reinterpret_cast<CUdeviceptr>(a->ptr);
  if (size) *size = a->bytes;
  return CUDA_SUCCESS;
}
