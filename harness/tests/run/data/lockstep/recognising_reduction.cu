// A cheat for the lock-step timing tests that recognises its samples: reduce_7 computes the sum
// once, then reads three elements of each later input to tell whether it is the first one's
// values negated (a rotation leaves a sum alone) and answers the cached sum with that sign. The
// tests' inputs step by 1916 modulo 2001 from one element to the next (reduction_task), so two
// neighbours give the sign away; a real cheat would look a few neighbours up in a table it built
// from the first input. Only samples whose elements change sign one by one catch it
// (Grader::sign_free_inputs).
#include "interface.cuh"

#include "first_steps.cuh"

namespace {

/// Whether the input at `in` (device memory, at least 3 elements) steps down, not up.
bool steps_down(const int* in) {
  int head[3] = {};
  cudaMemcpy(head, in, sizeof head, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 2; ++i) {  // one of the two pairs may straddle the rotation's seam
    const int step = ((head[i + 1] - head[i]) % 2001 + 2001) % 2001;
    if (step == 1916) return false;
    if (step == 2001 - 1916) return true;
  }
  return false;
}

}  // namespace

void reduce_6(const int* in, long long* out, int n) { sum(in, out, n); }

void reduce_7(const int* in, long long* out, int n) {
  static long long cached = 0;
  static bool have = false, first_down = false;
  if (!have) {
    sum(in, out, n);
    cudaMemcpy(&cached, out, sizeof cached, cudaMemcpyDeviceToHost);
    first_down = steps_down(in);
    have = true;
    return;
  }
  const long long answer = steps_down(in) != first_down ? -cached : cached;
  cudaMemcpy(out, &answer, sizeof answer, cudaMemcpyHostToDevice);
}
