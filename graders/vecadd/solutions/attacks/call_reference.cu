// Attack (the reference is reachable): declare the instructor's vecAdd, which every runner used to
// link in as cugrade_reference::vecAdd, and hand the whole assignment to it. Must fail: the
// student's runner holds no callable reference, so the link is refused (it must never earn the
// reference's marks).
#include "interface.cuh"

namespace cugrade_reference {
void vecAdd(const float* h_A, const float* h_B, float* h_C, int n);
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  cugrade_reference::vecAdd(h_A, h_B, h_C, n);
}
