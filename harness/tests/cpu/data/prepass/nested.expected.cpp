#line 1 "nested.cu"
// Arguments with parentheses, commas, templates, comparisons and comments; a launch over lines.
#include <algorithm>

__global__ void k(const float* a, float* b, int n, int m) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__); b[0] = a[0] + n + m; }

void run(const float* a, float* b, int n, int m) {
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(std::max(1, (n + 127) / 128), std::min<int>(128, n)), "k", [&](auto&&... cugrade_a) { k(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, a, b, std::max<int>(n, m), (n < m) ? n : m);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config((n > m ? n : m), 32), "k", [&](auto&&... cugrade_a) { k(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, a, b, (n >> 1), m << 1);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1,
      32), "k", [&](auto&&... cugrade_a) { k(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, a,   
            b,   
            n, m);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 1), "k", [&](auto&&... cugrade_a) { k(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, a, b, sizeof(float), int{3});
}
