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
  SUBCASE("a for loop without a condition spins too; one with a condition stays as written") {
    const std::string out = prepassed(
        "__global__ void k(volatile int* flag, int* out) {\n"
        "  int n = 0;\n"
        "  for (;;) { if (flag[0]) break; ++n; }\n"
        "  for (;;) ;\n"
        "  for (int i = 0;; ++i) out[1] = i;\n"
        "  for (int i = 0; i < 4; ++i) ++n;\n"
        "  for (int v : {1, 2}) n += v;\n"
        "  out[0] = n;\n"
        "}\n");
    CHECK(out.find("for (;;) { ::cugrade_cpu::spin_check(); if (flag[0]) break; ++n; }") != std::string::npos);
    CHECK(out.find("for (;;) { ::cugrade_cpu::yield_thread(); }") != std::string::npos);
    CHECK(out.find("for (int i = 0;; ++i) { ::cugrade_cpu::spin_check(); ") != std::string::npos);
    CHECK(out.find("for (int i = 0; i < 4; ++i) ++n;") != std::string::npos);
    CHECK(out.find("for (int v : {1, 2}) n += v;") != std::string::npos);
  }
  SUBCASE("a body that is an if, a loop or a lambda's call stays as written") {
    const std::string out = prepassed(
        "__global__ void k(int* out) {\n"
        "  int n = 4;\n"
        "  while (n > 0) if (n) --n;\n"
        "  while (n < 5) out[1] = [&] { return ++n; }();\n"
        "  out[0] = n;\n"
        "}\n");
    CHECK(out.find("spin_check") == std::string::npos);
    CHECK(out.find("while (n > 0) if (n) --n;") != std::string::npos);
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
