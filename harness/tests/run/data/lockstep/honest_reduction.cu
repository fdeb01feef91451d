// A correct reduction for every step of assignment reduction: the lock-step timing tests' honest
// student (one kernel, every entry point).
#include "interface.cuh"

#include "first_steps.cuh"

void reduce_6(const int* in, long long* out, int n) { sum(in, out, n); }
void reduce_7(const int* in, long long* out, int n) { sum(in, out, n); }
