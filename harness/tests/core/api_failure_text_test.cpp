// The words for a runtime call that failed by itself (runtime/api_failure_text.hpp), shared by the
// CPU executor and the GPU runner's wraps.
#include "api_failure_text.hpp"

#include <doctest/doctest.h>

using namespace cugrade::runner;

namespace {
PointerFacts host() { return {}; }
PointerFacts device(std::uint64_t room) { return {false, true, false, true, room}; }
PointerFacts freed() { return {false, false, true, false, 0}; }
}  // namespace

TEST_CASE("runtime::copy_failure_reason") {
  SUBCASE("a direction that does not match the pointers: swapped arguments") {
    CHECK(copy_failure_reason(host_to_device, host(), device(64), 64) ==
          "the direction is cudaMemcpyHostToDevice, but the destination is not memory from cudaMalloc (are the "
          "pointers or the direction swapped?)");
    CHECK(copy_failure_reason(device_to_host, device(64), host(), 64) ==
          "the direction is cudaMemcpyDeviceToHost, but the destination is device memory (are the pointers or the "
          "direction swapped?)");
  }
  SUBCASE("a copy longer than its allocation: a count in elements where bytes were meant") {
    CHECK(copy_failure_reason(host_to_device, device(100), host(), 400) ==
          "the destination has fewer than the 400 bytes copied (100 from there to its end; the count is in bytes: "
          "n * sizeof(element))");
  }
  SUBCASE("a copy after cudaFree") {
    CHECK(copy_failure_reason(device_to_host, host(), freed(), 64) ==
          "the source was already released by cudaFree (a use after cudaFree)");
    CHECK(copy_failure_reason(copy_default, freed(), host(), 64) ==
          "the destination was already released by cudaFree (a use after cudaFree)");
  }
  SUBCASE("a null pointer, a kind that is none, and what nothing explains") {
    CHECK(copy_failure_reason(host_to_device, PointerFacts{true}, host(), 4) == "the destination is a null pointer");
    CHECK(copy_failure_reason(7, device(4), host(), 4) == "the direction is not a cudaMemcpyKind");
    CHECK(copy_failure_reason(host_to_device, device(64), host(), 64).empty());
  }
}

TEST_CASE("runtime::free_failure_reason") {
  CHECK(free_failure_reason(freed()) == "the pointer was already released by cudaFree (freed twice)");
  CHECK(free_failure_reason(host()) == "the pointer is not memory from cudaMalloc");
  CHECK(set_failure_reason(device(10), 40) ==
        "the memory has fewer than the 40 bytes set (10 from there to its end; the count is in bytes: "
        "n * sizeof(element))");
}

TEST_CASE("runtime::api_failure_sentence") {
  CHECK(api_failure_sentence("cudaMemcpy", "src/submission_0.cu", 42, "cudaErrorInvalidValue", "invalid argument",
                             "the source was already released by cudaFree (a use after cudaFree)") ==
        "cudaMemcpy (submission_0.cu:42) failed with cudaErrorInvalidValue: the source was already released by "
        "cudaFree (a use after cudaFree)");
  CHECK(api_failure_sentence("cudaFree", nullptr, 0, "cudaErrorInvalidValue", "invalid argument", "") ==
        "cudaFree failed with cudaErrorInvalidValue: invalid argument");
}
