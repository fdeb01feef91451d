#line 1 "strings_comments.cu"
// `<<<` inside comments and literals is not a launch; shifts are not launches either.
#include <cstdio>

__global__ void k(int* x) { ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__); x[0] = 1 << 3; }

// k<<<1, 1>>>(nullptr);
/* k<<<1, 1>>>(nullptr); */
void run(int* x) {
  const char* text = "k<<<1, 1>>>(x)";
  const char* raw = R"cuda(k<<<1, 1>>>(x) )" still raw)cuda";
  char c = '<';
  int shifted = (x[0] << 2) >> 1;
  std::printf("%s %s %c %d\n", text, raw, c, shifted);
  ::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 1), "k", [&](auto&&... cugrade_a) { k(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }, x);  // the only launch in this file
}
