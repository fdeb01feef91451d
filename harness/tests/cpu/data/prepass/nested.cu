// Arguments with parentheses, commas, templates, comparisons and comments; a launch over lines.
#include <algorithm>

__global__ void k(const float* a, float* b, int n, int m) { b[0] = a[0] + n + m; }

void run(const float* a, float* b, int n, int m) {
  k<<<std::max(1, (n + 127) / 128), std::min<int>(128, n)>>>(a, b, std::max<int>(n, m), (n < m) ? n : m);
  k<<<(n > m ? n : m), 32>>>(a, b, (n >> 1), m << 1);
  k<<<1,
      32>>>(a,  // the input
            b,  /* the output, with a ) in a comment */
            n, m);
  k /* the kernel */ <<<1, 1>>> /* then */ (a, b, sizeof(float), int{3});
}
