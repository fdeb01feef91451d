// A near miss for the lock-step timing tests: reduce_7's sum is one too large. Where the sum is
// trillions, one is far below the rounding a digest's bucket sums allow, so only the exact part
// of the digest (a step of exact tolerance) can tell it from the reference's.
#include "interface.cuh"

#include "first_steps.cuh"

__global__ void add_one(long long* out) { *out += 1; }

void reduce_6(const int* in, long long* out, int n) { sum(in, out, n); }

void reduce_7(const int* in, long long* out, int n) {
  sum(in, out, n);
  add_one<<<1, 1>>>(out);
}
