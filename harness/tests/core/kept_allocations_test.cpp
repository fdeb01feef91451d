// The bookkeeping behind a timed call's cudaMalloc and cudaFree (runtime/allocation_wraps.cpp):
// which blocks are kept, which are handed out again, and what is freed for real.
#include "kept_allocations.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace {
using cugrade::runner::KeptAllocations;
using Free = KeptAllocations::Free;

void* address_of(std::uintptr_t address) { return reinterpret_cast<void*>(address); }
}  // namespace

TEST_CASE("a block a timed call made and freed is handed to the next call's allocation of its size") {
  KeptAllocations kept;
  CHECK(kept.take(2048) == nullptr);  // nothing kept yet: the real cudaMalloc
  kept.note_made(address_of(0x1000), 2048);
  std::size_t bytes = 0;
  REQUIRE(kept.on_free(address_of(0x1000), true, bytes) == Free::keep);
  CHECK(bytes == 2048);
  kept.keep(address_of(0x1000), bytes);
  CHECK(kept.kept_count() == 1);
  CHECK(kept.take(4096) == nullptr);  // another size: the real cudaMalloc
  CHECK(kept.take(2048) == address_of(0x1000));
  CHECK(kept.kept_count() == 0);
  // Handed out again, it is held: freed inside a call, kept again.
  CHECK(kept.on_free(address_of(0x1000), true, bytes) == Free::keep);
}

TEST_CASE("outside a timed call, and for blocks no timed call made, cudaFree is the real one") {
  KeptAllocations kept;
  std::size_t bytes = 0;
  // The runner's own buffers, or a student's allocated before the timing: never kept.
  CHECK(kept.on_free(address_of(0x2000), true, bytes) == Free::real);
  // A block a timed call made, freed after the call (a student's static pointer): freed for real,
  // and no longer held.
  kept.note_made(address_of(0x3000), 64);
  CHECK(kept.on_free(address_of(0x3000), false, bytes) == Free::real);
  CHECK(kept.on_free(address_of(0x3000), true, bytes) == Free::real);
  CHECK(kept.kept_count() == 0);
}

TEST_CASE("freeing a kept block again is the error a second real cudaFree gives, and frees nothing") {
  KeptAllocations kept;
  kept.note_made(address_of(0x1000), 256);
  std::size_t bytes = 0;
  REQUIRE(kept.on_free(address_of(0x1000), true, bytes) == Free::keep);
  kept.keep(address_of(0x1000), bytes);
  CHECK(kept.on_free(address_of(0x1000), true, bytes) == Free::double_free);
  CHECK(kept.on_free(address_of(0x1000), false, bytes) == Free::double_free);
  CHECK(kept.kept_count() == 1);
  CHECK(kept.take(256) == address_of(0x1000));  // still whole for the next call
}

TEST_CASE("the newest block of a size is handed out first, and the oldest go past the limit") {
  KeptAllocations kept(2);
  std::size_t bytes = 0;
  for (std::uintptr_t address : {0x1000, 0x2000, 0x3000}) {
    kept.note_made(address_of(address), 128);
    REQUIRE(kept.on_free(address_of(address), true, bytes) == Free::keep);
    kept.keep(address_of(address), bytes);
  }
  CHECK(kept.kept_count() == 2);
  CHECK(kept.evicted() == std::vector<void*>{address_of(0x1000)});  // for the real cudaFree
  CHECK(kept.evicted().empty());
  CHECK(kept.take(128) == address_of(0x3000));
  CHECK(kept.release_all() == std::vector<void*>{address_of(0x2000)});
  CHECK(kept.kept_count() == 0);
  CHECK(kept.take(128) == nullptr);
}

TEST_CASE("an allocation of no bytes is never served from kept blocks") {
  KeptAllocations kept;
  kept.note_made(address_of(0x1000), 0);  // not held: cudaMalloc of 0 bytes gives no block to keep
  std::size_t bytes = 0;
  CHECK(kept.on_free(address_of(0x1000), true, bytes) == Free::real);
  CHECK(kept.take(0) == nullptr);
}
