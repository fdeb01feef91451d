// The GPU memory a runner holds against its limit (runtime/memory_ledger.hpp), as the allocation
// wraps (runtime/allocation_wraps.cpp) use it.
#include "memory_ledger.hpp"

#include <doctest/doctest.h>

#include <cstdint>

namespace {
using cugrade::runner::MemoryLedger;
constexpr std::uint64_t MiB = std::uint64_t{1} << 20;
constexpr std::uint64_t GiB = std::uint64_t{1} << 30;

const void* address_of(std::uintptr_t address) { return reinterpret_cast<const void*>(address); }
}  // namespace

TEST_CASE("an allocation that would take the runner past its limit is refused, and says why") {
  MemoryLedger ledger(4 * GiB);
  CHECK(ledger.admit("cudaMalloc", 3 * GiB));
  ledger.note_made(address_of(0x1000), 3 * GiB);
  CHECK(ledger.held() == 3 * GiB);
  CHECK(ledger.take_refusal().empty());
  // All of an H200's free memory but 64 MiB, as matmul's attacks/gpu_memory_hog.cu asks.
  CHECK_FALSE(ledger.admit("cudaMalloc", 139 * GiB));
  CHECK_FALSE(ledger.admit("cudaMallocManaged", 2 * GiB));  // the first refusal is the one told
  CHECK(ledger.take_refusal() ==
        "cudaMalloc asked for 139.0 GiB of GPU memory while your code held 3.0 GiB; a runner may hold at most "
        "4.0 GiB (the assignment's limits.gpu_memory_mb), so it failed with cudaErrorMemoryAllocation");
  CHECK(ledger.take_refusal().empty());  // told once
  CHECK(ledger.admit("cudaMalloc", GiB));  // exactly up to the limit
  CHECK_FALSE(ledger.admit("cudaMalloc", GiB + 1));
}

TEST_CASE("freeing gives the bytes back; unknown pointers change nothing") {
  MemoryLedger ledger(GiB);
  ledger.note_made(address_of(0x1000), 600 * MiB);
  CHECK_FALSE(ledger.admit("cudaMalloc", 600 * MiB));
  ledger.note_freed(address_of(0x2000));  // never made here (a kept block, a double free)
  CHECK(ledger.held() == 600 * MiB);
  ledger.note_freed(address_of(0x1000));
  CHECK(ledger.held() == 0);
  CHECK(ledger.admit("cudaMalloc", 600 * MiB));
  ledger.note_freed(address_of(0x1000));  // freed twice: counted once
  CHECK(ledger.held() == 0);
  ledger.note_made(nullptr, GiB);  // a failed call's null pointer: nothing held
  CHECK(ledger.held() == 0);
}

TEST_CASE("a reservation (the device heap, the stacks) holds what it was last set to") {
  MemoryLedger ledger(GiB);
  CHECK(ledger.reserve("cudaDeviceSetLimit", "the device heap", 512 * MiB));
  CHECK(ledger.held() == 512 * MiB);
  CHECK(ledger.reserve("cudaDeviceSetLimit", "the device heap", 256 * MiB));  // smaller: always fits
  CHECK(ledger.held() == 256 * MiB);
  CHECK(ledger.reserved("the device heap") == 256 * MiB);
  CHECK_FALSE(ledger.reserve("cudaDeviceSetLimit", "the threads' stacks", 900 * MiB));
  CHECK(ledger.held() == 256 * MiB);  // a refused one keeps what was there
  CHECK(ledger.take_refusal().starts_with("cudaDeviceSetLimit asked for 900.0 MiB"));
}

TEST_CASE("no limit: everything is admitted and counted") {
  MemoryLedger ledger;
  CHECK(ledger.admit("cudaMalloc", std::uint64_t{1} << 50));
  ledger.note_made(address_of(0x1000), 80 * GiB);
  CHECK(ledger.held() == 80 * GiB);
  CHECK(ledger.take_refusal().empty());
}

TEST_CASE("the limit from its environment variable, in MiB") {
  using cugrade::runner::memory_limit_from;
  CHECK(memory_limit_from("4096") == 4 * GiB);
  CHECK(memory_limit_from("1") == MiB);
  for (const char* none : {"", "0", "-5", "4G", "abc"}) CHECK_MESSAGE(memory_limit_from(none) == 0, none);
  CHECK(memory_limit_from(nullptr) == 0);
}

TEST_CASE("sizes shown to a student") {
  using cugrade::runner::show_memory;
  CHECK(show_memory(512) == "512 B");
  CHECK(show_memory(3 * MiB) == "3.0 MiB");
  CHECK(show_memory(139 * GiB + 400 * MiB) == "139.4 GiB");
}

TEST_CASE("runtime::MemoryLedger::holder_of") {
  MemoryLedger ledger;
  ledger.note_made(address_of(0x1000), 256);
  ledger.note_made(address_of(0x8000), 64);
  const auto inside = ledger.holder_of(address_of(0x1080));
  REQUIRE(inside);
  CHECK(inside->start == address_of(0x1000));
  CHECK(inside->bytes == 256);
  CHECK(inside->live);
  CHECK_FALSE(ledger.holder_of(address_of(0x1100)));  // one past the end
  ledger.note_freed(address_of(0x8000));
  const auto freed = ledger.holder_of(address_of(0x8010));
  REQUIRE(freed);
  CHECK_FALSE(freed->live);
  ledger.note_made(address_of(0x8000), 32);  // the address given out again: live first
  CHECK(ledger.holder_of(address_of(0x8010))->live);
  CHECK_FALSE(ledger.holder_of(address_of(0x8030))->live);  // past the new one, inside the freed one
}
