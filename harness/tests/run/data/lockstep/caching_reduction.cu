// A cheat for the lock-step timing tests: reduce_7 computes the sum once and then only copies
// the cached result, whatever the inputs (the attack "do the real work only when the input is
// new", with the laziest test of newness). Every timed call runs on fresh inputs, so the digest
// of the second timed call must give it away.
#include "interface.cuh"

#include "first_steps.cuh"

void reduce_6(const int* in, long long* out, int n) { sum(in, out, n); }

void reduce_7(const int* in, long long* out, int n) {
  static long long cached = 0;
  static bool have = false;
  if (!have) {
    sum(in, out, n);
    cudaMemcpy(&cached, out, sizeof cached, cudaMemcpyDeviceToHost);
    have = true;
  }
  cudaMemcpy(out, &cached, sizeof cached, cudaMemcpyHostToDevice);
}
