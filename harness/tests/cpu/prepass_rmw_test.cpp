// The pre-pass's wrapping of read-modify-writes in device code (prepass_rmw.cpp): which updates
// go through ::cugrade_cpu::rmw, and which stay as written.
#include <doctest/doctest.h>

#include <string>

#include "prepass.hpp"

namespace {

// The pre-passed body of `__global__ void k(float* out, int* hist, float* in, int n) { <body> }`.
std::string body_of(const std::string& body) {
  const std::string source = "__global__ void k(float* out, int* hist, float* in, int n) {\n" + body + "\n}\n";
  auto out = cugrade::cpu::cuda_to_cpp(source, "a.cu");
  REQUIRE(out);
  const auto start = out->find("__PRETTY_FUNCTION__);\n");
  REQUIRE(start != std::string::npos);
  std::string text = out->substr(start + 22);
  return text.substr(0, text.rfind("\n}"));
}

}  // namespace

TEST_CASE("prepass::wrap_global_updates") {
  SUBCASE("compound assignments through [] or *") {
    CHECK(body_of("if (threadIdx.x == 0) *out += in[0];") == "if (threadIdx.x == 0)  ::cugrade_cpu::rmw(*out) += in[0];");
    CHECK(body_of("out[n] -= 1; out[n] *= 2; out[n] /= 2;") ==
          " ::cugrade_cpu::rmw(out[n]) -= 1;  ::cugrade_cpu::rmw(out[n]) *= 2;  ::cugrade_cpu::rmw(out[n]) /= 2;");
    CHECK(body_of("hist[n] %= 3; hist[n] ^= 1; hist[n] <<= 1; hist[n] >>= 1;") ==
          " ::cugrade_cpu::rmw(hist[n]) %= 3;  ::cugrade_cpu::rmw(hist[n]) ^= 1;  ::cugrade_cpu::rmw(hist[n]) <<= 1;  "
          "::cugrade_cpu::rmw(hist[n]) >>= 1;");
    CHECK(body_of("out[blockIdx.x * n + threadIdx.x]+=in[n];") ==
          " ::cugrade_cpu::rmw(out[blockIdx.x * n + threadIdx.x])+=in[n];");
  }
  SUBCASE("++ and --, prefix and postfix") {
    CHECK(body_of("hist[(int)in[n] % 4]++;") == " ::cugrade_cpu::rmw(hist[(int)in[n] % 4])++;");
    CHECK(body_of("++hist[0]; --*hist; (*hist)--;") ==
          "++ ::cugrade_cpu::rmw(hist[0]); -- ::cugrade_cpu::rmw(*hist);  ::cugrade_cpu::rmw((*hist))--;");
    CHECK(body_of("if (n) ++hist[1];") == "if (n) ++ ::cugrade_cpu::rmw(hist[1]);");
    CHECK(body_of("int v = hist[0]++ + ++hist[1];") ==
          "int v =  ::cugrade_cpu::rmw(hist[0])++ + ++ ::cugrade_cpu::rmw(hist[1]);");
  }
  SUBCASE("member accesses, qualified names and casts") {
    CHECK(body_of("p->count++; s.v[n] += 1; ::g[n] += 1;") ==
          " ::cugrade_cpu::rmw(p->count)++;  ::cugrade_cpu::rmw(s.v[n]) += 1;  ::cugrade_cpu::rmw(::g[n]) += 1;");
    CHECK(body_of("reinterpret_cast<float*>(hist)[n] += 1.0f;") ==
          " ::cugrade_cpu::rmw(reinterpret_cast<float*>(hist)[n]) += 1.0f;");
  }
  SUBCASE("a bit-field reached through a pointer stays as written: the wrapper cannot take its address") {
    const std::string source =
        "struct Flags { unsigned seen : 4; unsigned count; int a : BITS, b : 2; };\n"
        "__global__ void k(Flags* p) { p->seen += 1; p->count += 1; p->b++; (*p).a -= 1; }\n";
    auto out = cugrade::cpu::cuda_to_cpp(source, "a.cu");
    REQUIRE(out);
    CHECK(out->find("p->seen += 1;") != std::string::npos);
    CHECK(out->find("::cugrade_cpu::rmw(p->count) += 1;") != std::string::npos);
    CHECK(out->find("p->b++;") != std::string::npos);
    CHECK(out->find("(*p).a -= 1;") != std::string::npos);
    CHECK(out->find("rmw(p->seen)") == std::string::npos);
  }
  SUBCASE("a statement's boundary before the lvalue") {
    CHECK(body_of("for (int i = 0; i < n; ++i) out[i] += 1;") ==
          "for (int i = 0; i < n; ++i)  ::cugrade_cpu::rmw(out[i]) += 1;");
    CHECK(body_of("while (n) *out += 1; do out[0] += 1; while (0); if (n) {} else out[1] += 1;") ==
          "while (n) { ::cugrade_cpu::spin_check();  ::cugrade_cpu::rmw(*out) += 1; } do { ::cugrade_cpu::spin_check();  "
              "::cugrade_cpu::rmw(out[0]) += 1; } while (0); if (n) {} "
          "else  ::cugrade_cpu::rmw(out[1]) += 1;");
    CHECK(body_of("float x = n ? out[0] += 1 : 0;") == "float x = n ?  ::cugrade_cpu::rmw(out[0]) += 1 : 0;");
  }
  SUBCASE("what cannot be global memory stays as written: it costs nothing") {
    const std::string locals = "float sum = 0; int i = 0; float2 acc; sum += in[0]; i++; --i; acc.x += 1; i <<= 2;";
    CHECK(body_of(locals) == locals);
    const std::string arrays = "__shared__ float sdata[64]; float acc[4]; sdata[n] += sdata[n + 1]; acc[n * 2] += 1; "
                               "++acc[0];";
    CHECK(body_of(arrays).ends_with("sdata[n] += sdata[n + 1]; acc[n * 2] += 1; ++acc[0];"));
    const std::string extern_shared = "extern __shared__ int partial[]; partial[n] += 1;";
    CHECK(body_of(extern_shared).ends_with("(\"partial\"); partial[n] += 1;"));
  }
  SUBCASE("what the pre-pass cannot read with certainty stays as written") {
    for (const std::string same : {"*(float*)out += 2;", "*p++ += 1;", "x = a * b[n] += 1;", "++*p++;",
                                   "if (n <= out[0]) {}", "k(f<int>(n) += 1);", "[&](int i) { return i; }(n);"}) {
      CAPTURE(same);
      CHECK(body_of(same) == same);
    }
  }
  SUBCASE("a kernel parameter written as an array is global memory") {
    auto out = cugrade::cpu::cuda_to_cpp("__global__ void k(float c[]) { c[0] += 1; }\n", "a.cu");
    REQUIRE(out);
    CHECK(out->find("::cugrade_cpu::rmw(c[0]) += 1;") != std::string::npos);
  }
  SUBCASE("host code and __host__ __device__ functions are not rewritten") {
    const std::string host = "void h(float* out) { out[0] += 1; }\n__host__ __device__ void hd(float* o) { o[0]++; }\n";
    auto out = cugrade::cpu::cuda_to_cpp(host, "a.cu");
    REQUIRE(out);
    CHECK(out->find("rmw") == std::string::npos);
  }
  SUBCASE("lines keep their numbers") {
    auto out = cugrade::cpu::cuda_to_cpp("__device__ void f(float* out,\n float v) {\n  out[0]\n  += v;\n}\n", "a.cu");
    REQUIRE(out);
    CHECK(*out == "#line 1 \"a.cu\"\n__device__ void f(float* out,\n float v) {\n   ::cugrade_cpu::rmw(out[0])\n  += v;\n}\n");
  }
}
