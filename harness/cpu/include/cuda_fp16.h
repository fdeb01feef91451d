#pragma once
// The CPU backend's cuda_fp16.h: CUDA's half precision (IEEE binary16) for kernels compiled as C++.
// A half value is stored as the compiler's _Float16 (GCC and Clang on x86-64 and AArch64), and
// every operation is done in float and rounded once to binary16: for +, −, ×, ÷ and sqrt that is
// the correctly rounded result (float's 24 bits are at least 2·11 + 2, so rounding twice cannot
// differ), which is what the GPU's half instructions give. So a kernel that computes in half
// precision gets the same error here as on a GPU, and fails a tolerance made for FP32 alike.
// What is declared is the common subset: __half and __half2, conversions, arithmetic, comparisons.
#define __CUDA_FP16_H__
#define __CUDA_FP16_HPP__
#include <cmath>
#include <cstring>

#include "cuda_runtime.h"

struct __half {
  _Float16 value{};
  __half() = default;
  __host__ __device__ __half(float f) : value(static_cast<_Float16>(f)) {}
  __host__ __device__ __half(double d) : value(static_cast<_Float16>(static_cast<float>(d))) {}
  __host__ __device__ __half(int i) : value(static_cast<_Float16>(static_cast<float>(i))) {}
  __host__ __device__ operator float() const { return static_cast<float>(value); }
};
typedef __half half;

struct __half2 {
  __half x, y;
};
typedef __half2 half2;

// Conversions.
__host__ __device__ inline __half __float2half(float f) { return __half(f); }
__host__ __device__ inline __half __float2half_rn(float f) { return __half(f); }
__host__ __device__ inline __half __double2half(double d) { return __half(d); }
__host__ __device__ inline float __half2float(__half h) { return static_cast<float>(h); }
__host__ __device__ inline __half __int2half_rn(int i) { return __half(i); }
__host__ __device__ inline int __half2int_rz(__half h) { return static_cast<int>(static_cast<float>(h)); }
__host__ __device__ inline int __half2int_rn(__half h) { return static_cast<int>(std::nearbyint(static_cast<float>(h))); }
__host__ __device__ inline unsigned short __half_as_ushort(__half h) {
  unsigned short bits;
  std::memcpy(&bits, &h.value, sizeof bits);
  return bits;
}
__host__ __device__ inline __half __ushort_as_half(unsigned short bits) {
  __half h;
  std::memcpy(&h.value, &bits, sizeof bits);
  return h;
}

// Arithmetic, each rounded once to binary16.
__host__ __device__ inline __half __hadd(__half a, __half b) { return __half(float(a) + float(b)); }
__host__ __device__ inline __half __hsub(__half a, __half b) { return __half(float(a) - float(b)); }
__host__ __device__ inline __half __hmul(__half a, __half b) { return __half(float(a) * float(b)); }
__host__ __device__ inline __half __hdiv(__half a, __half b) { return __half(float(a) / float(b)); }
__host__ __device__ inline __half __hneg(__half a) { return __half(-float(a)); }
__host__ __device__ inline __half __habs(__half a) { return __half(std::fabs(float(a))); }
/// a·b + c rounded once (float's product of two halves is exact).
__host__ __device__ inline __half __hfma(__half a, __half b, __half c) { return __half(float(a) * float(b) + float(c)); }
__host__ __device__ inline __half hsqrt(__half a) { return __half(std::sqrt(float(a))); }
__host__ __device__ inline __half hrsqrt(__half a) { return __half(1.0f / std::sqrt(float(a))); }
__host__ __device__ inline __half hrcp(__half a) { return __half(1.0f / float(a)); }

__host__ __device__ inline __half operator+(__half a, __half b) { return __hadd(a, b); }
__host__ __device__ inline __half operator-(__half a, __half b) { return __hsub(a, b); }
__host__ __device__ inline __half operator*(__half a, __half b) { return __hmul(a, b); }
__host__ __device__ inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
__host__ __device__ inline __half operator-(__half a) { return __hneg(a); }
__host__ __device__ inline __half& operator+=(__half& a, __half b) { return a = __hadd(a, b); }
__host__ __device__ inline __half& operator-=(__half& a, __half b) { return a = __hsub(a, b); }
__host__ __device__ inline __half& operator*=(__half& a, __half b) { return a = __hmul(a, b); }
__host__ __device__ inline __half& operator/=(__half& a, __half b) { return a = __hdiv(a, b); }

// Comparisons.
__host__ __device__ inline bool __heq(__half a, __half b) { return float(a) == float(b); }
__host__ __device__ inline bool __hne(__half a, __half b) { return float(a) != float(b); }
__host__ __device__ inline bool __hlt(__half a, __half b) { return float(a) < float(b); }
__host__ __device__ inline bool __hle(__half a, __half b) { return float(a) <= float(b); }
__host__ __device__ inline bool __hgt(__half a, __half b) { return float(a) > float(b); }
__host__ __device__ inline bool __hge(__half a, __half b) { return float(a) >= float(b); }
__host__ __device__ inline bool __hisnan(__half a) { return std::isnan(float(a)); }
__host__ __device__ inline bool operator==(__half a, __half b) { return __heq(a, b); }
__host__ __device__ inline bool operator!=(__half a, __half b) { return __hne(a, b); }
__host__ __device__ inline bool operator<(__half a, __half b) { return __hlt(a, b); }
__host__ __device__ inline bool operator<=(__half a, __half b) { return __hle(a, b); }
__host__ __device__ inline bool operator>(__half a, __half b) { return __hgt(a, b); }
__host__ __device__ inline bool operator>=(__half a, __half b) { return __hge(a, b); }

// __half2: two halves, each lane as above.
__host__ __device__ inline __half2 __halves2half2(__half a, __half b) { return {a, b}; }
__host__ __device__ inline __half2 __floats2half2_rn(float a, float b) { return {__half(a), __half(b)}; }
__host__ __device__ inline __half2 __float2half2_rn(float a) { return {__half(a), __half(a)}; }
__host__ __device__ inline float __low2float(__half2 v) { return float(v.x); }
__host__ __device__ inline float __high2float(__half2 v) { return float(v.y); }
__host__ __device__ inline __half __low2half(__half2 v) { return v.x; }
__host__ __device__ inline __half __high2half(__half2 v) { return v.y; }
__host__ __device__ inline __half2 __hadd2(__half2 a, __half2 b) { return {a.x + b.x, a.y + b.y}; }
__host__ __device__ inline __half2 __hsub2(__half2 a, __half2 b) { return {a.x - b.x, a.y - b.y}; }
__host__ __device__ inline __half2 __hmul2(__half2 a, __half2 b) { return {a.x * b.x, a.y * b.y}; }
__host__ __device__ inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}
