// The runner's end in words (harness/src/run/runner_words.cpp).
#include "run/runner_words.hpp"

#include <doctest/doctest.h>

#include <csignal>

using namespace cugrade;

TEST_CASE("run::describe_signal") {
  CHECK(describe_signal(SIGSEGV) == "SIGSEGV (segmentation fault: a bad host pointer)");
  CHECK(describe_signal(SIGABRT) == "SIGABRT (abort)");
  CHECK(describe_signal(SIGFPE) == "SIGFPE (arithmetic error, e.g. integer division by zero)");
  CHECK(describe_signal(SIGBUS) == "SIGBUS (bus error)");
  CHECK(describe_signal(SIGILL) == "SIGILL (illegal instruction)");
  CHECK(describe_signal(SIGKILL) == "SIGKILL (killed)");
  CHECK(describe_signal(SIGTERM) == "signal 15 (Terminated)");
}

TEST_CASE("run::cuda_error_message") {
  Event e;
  e.kind = "cuda_error";
  e.call = "vecAdd() → cudaGetLastError";
  SUBCASE("a runtime call that failed by itself leads with its own sentence, with no prefix and no kernel") {
    e.failed_call = "cudaMemcpy";
    e.error = "cudaMemcpy (vecadd.cu:28) failed with cudaErrorInvalidValue: the direction is cudaMemcpyHostToDevice, "
              "but the destination is not memory from cudaMalloc (are the pointers or the direction swapped?)";
    CHECK(cuda_error_message(e) == e.error);
  }
  SUBCASE("a failed call without its line still leads with the call") {
    e.failed_call = "cudaFree";
    e.error = "cudaFree failed with cudaErrorInvalidValue: the pointer was already released by cudaFree (freed twice)";
    CHECK(cuda_error_message(e).starts_with("cudaFree failed with"));
  }
  SUBCASE("any other error keeps where it was found and the last kernel") {
    e.error = "an illegal memory access was encountered";
    e.kernel = "vecAddKernel";
    CHECK(cuda_error_message(e) ==
          "CUDA error in vecAdd() → cudaGetLastError: an illegal memory access was encountered (last kernel "
          "launched: vecAddKernel)");
  }
  SUBCASE("a failed call with no sentence (a runner that said too little) is worded as any other error") {
    e.failed_call = "cudaMemcpy";
    CHECK(cuda_error_message(e) == "CUDA error in vecAdd() → cudaGetLastError: ");
  }
}
