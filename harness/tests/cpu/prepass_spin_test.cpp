// The pre-pass's yield in spin-waits of device code (prepass_spin.cpp): which loops get one.
#include <doctest/doctest.h>

#include <string>

#include "prepass.hpp"

namespace {

// The pre-passed text of `source`, or "" when the pre-pass refused it.
std::string prepassed(const std::string& source) {
  auto out = cugrade::cpu::cuda_to_cpp(source, "a.cu");
  REQUIRE(out);
  return *out;
}

}  // namespace

TEST_CASE("prepass::yield_in_spin_waits") {
  SUBCASE("an empty while body in device code yields") {
    const std::string out = prepassed(
        "__global__ void k(volatile int* flag, int* out) {\n"
        "  while (*flag == 0);\n"
        "  while (flag[1] != 2) {}\n"
        "  do {} while (flag[2] == 0);\n"
        "  out[0] = 1;\n"
        "}\n");
    CHECK(out.find("while (*flag == 0){ ::cugrade_cpu::yield_thread(); }") != std::string::npos);
    CHECK(out.find("while (flag[1] != 2) { ::cugrade_cpu::yield_thread(); }") != std::string::npos);
    CHECK(out.find("do { ::cugrade_cpu::yield_thread(); } while (flag[2] == 0);") != std::string::npos);
  }
  SUBCASE("a loop body counts its passes (spin_check): a block, or a simple statement made one") {
    const std::string out = prepassed(
        "__device__ int f(int* p) {\n"
        "  int n = 0;\n"
        "  while (p[n] != 0) ++n;\n"
        "  do { ++n; } while (n < 10);\n"
        "  do ++n; while (n < 20);\n"
        "  while (n > 0) { --n; }\n"
        "  for (int i = 0; i < 4; ++i) { ++n; }\n"
        "  return n;\n"
        "}\n"
        "void host(volatile int* flag) { while (*flag == 0); while (*flag) { *flag = 0; } }\n");
    CHECK(out.find("yield_thread") == std::string::npos);
    CHECK(out.find("while (p[n] != 0) { ::cugrade_cpu::spin_check(); ++n; }") != std::string::npos);
    CHECK(out.find("do { ::cugrade_cpu::spin_check(); ++n; } while (n < 10);") != std::string::npos);
    CHECK(out.find("do { ::cugrade_cpu::spin_check(); ++n; } while (n < 20);") != std::string::npos);
    CHECK(out.find("while (n > 0) { ::cugrade_cpu::spin_check(); --n; }") != std::string::npos);
    CHECK(out.find("for (int i = 0; i < 4; ++i) { ++n; }") != std::string::npos);
    CHECK(out.find("void host(volatile int* flag) { while (*flag == 0); while (*flag) { *flag = 0; } }") !=
          std::string::npos);
  }
  SUBCASE("a for loop without a condition spins too, or whose condition names nothing it counts; a counted one stays as written") {
    const std::string out = prepassed(
        "__global__ void k(volatile int* flag, int* out) {\n"
        "  int n = 0;\n"
        "  for (;;) { if (flag[0]) break; ++n; }\n"
        "  for (;;) ;\n"
        "  for (int i = 0;; ++i) out[1] = i;\n"
        "  for (int i = 0; i < 4; ++i) ++n;\n"
        "  for (int v : {1, 2}) n += v;\n"
        "  for (; flag[1] == 0;) ++n;\n"
        "  for (int i = 0; !flag[2]; ++i) out[2] = i;\n"
        "  for (int s = n / 2; s > 0; s >>= 1) n -= s;\n"
        "  for (int i = 0, j = 4; j > n; ++i) ++n;\n"
        "  out[0] = n;\n"
        "}\n");
    CHECK(out.find("for (;;) { ::cugrade_cpu::spin_check(); if (flag[0]) break; ++n; }") != std::string::npos);
    CHECK(out.find("for (;;) { ::cugrade_cpu::yield_thread(); }") != std::string::npos);
    CHECK(out.find("for (int i = 0;; ++i) { ::cugrade_cpu::spin_check(); ") != std::string::npos);
    CHECK(out.find("for (int i = 0; i < 4; ++i) ++n;") != std::string::npos);
    CHECK(out.find("for (int v : {1, 2}) n += v;") != std::string::npos);
    CHECK(out.find("for (; flag[1] == 0;) { ::cugrade_cpu::spin_check(); ++n; }") != std::string::npos);
    CHECK(out.find("for (int i = 0; !flag[2]; ++i) { ::cugrade_cpu::spin_check(); ") != std::string::npos);
    CHECK(out.find("for (int s = n / 2; s > 0; s >>= 1) n -= s;") != std::string::npos);
    CHECK(out.find("for (int i = 0, j = 4; j > n; ++i) ++n;") != std::string::npos);
  }
  SUBCASE("a body that is an if (with its else), a loop or a switch becomes a block too; a lambda's call stays") {
    const std::string out = prepassed(
        "__global__ void k(volatile int* flag, int* out) {\n"
        "  int n = 4;\n"
        "  while (flag[0] == 0) if (n) --n; else ++n;\n"
        "  while (flag[1] == 0) for (int i = 0; i < 2; ++i) ++n;\n"
        "  while (flag[2] == 0) switch (n) { case 0: ++n; break; default: --n; }\n"
        "  while (flag[3] == 0) do ++n; while (n < 3);\n"
        "  while (n < 5) out[1] = [&] { return ++n; }();\n"
        "  out[0] = n;\n"
        "}\n");
    CHECK(out.find("while (flag[0] == 0) { ::cugrade_cpu::spin_check(); if (n) --n; else ++n; }") != std::string::npos);
    CHECK(out.find("while (flag[1] == 0) { ::cugrade_cpu::spin_check(); for (int i = 0; i < 2; ++i) ++n; }") !=
          std::string::npos);
    CHECK(out.find("while (flag[2] == 0) { ::cugrade_cpu::spin_check(); switch (n) { case 0: ++n; break; default: --n; } }") !=
          std::string::npos);
    CHECK(out.find("while (flag[3] == 0) { ::cugrade_cpu::spin_check(); do { ::cugrade_cpu::spin_check(); ++n; } while (n < 3); }") !=
          std::string::npos);
    CHECK(out.find("while (n < 5) out[1] = [&] { return ++n; }();") != std::string::npos);
  }
  SUBCASE("an update of global memory as the body: the block opens before its wrapper, however tight") {
    const std::string out = prepassed(
        "__global__ void k(volatile int* flag, int* out) {\n"
        "  while (flag[0] == 0) out[0] += 1;\n"
        "  while(flag[1]==0){out[1]+=1;}\n"
        "}\n");
    CHECK(out.find("while (flag[0] == 0) { ::cugrade_cpu::spin_check();  ::cugrade_cpu::rmw(out[0]) += 1; }") !=
          std::string::npos);
    CHECK(out.find("while(flag[1]==0){ ::cugrade_cpu::spin_check(); ::cugrade_cpu::rmw(out[1])+=1;}") !=
          std::string::npos);
  }
}
