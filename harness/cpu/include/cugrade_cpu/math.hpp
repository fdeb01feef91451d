#pragma once
// CUDA's device math: the C library functions come from <cmath> (global namespace, as in
// CUDA); this adds the intrinsics and the global min/max overloads CUDA declares. Fast-math
// intrinsics (__expf, __sinf, ...) are computed exactly here, so a result that depends on their
// reduced precision is not reproduced.
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <math.h>

// Why global overloads: CUDA declares min/max for every arithmetic type in the global namespace,
// and course code calls them unqualified in kernels.
#define CUGRADE_CPU_MINMAX(T)                          \
  inline T min(T a, T b) { return b < a ? b : a; }     \
  inline T max(T a, T b) { return a < b ? b : a; }
CUGRADE_CPU_MINMAX(int)
CUGRADE_CPU_MINMAX(unsigned int)
CUGRADE_CPU_MINMAX(long)
CUGRADE_CPU_MINMAX(unsigned long)
CUGRADE_CPU_MINMAX(long long)
CUGRADE_CPU_MINMAX(unsigned long long)
#undef CUGRADE_CPU_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline unsigned int min(int a, unsigned int b) { return min(static_cast<unsigned int>(a), b); }
inline unsigned int min(unsigned int a, int b) { return min(a, static_cast<unsigned int>(b)); }
inline unsigned int max(int a, unsigned int b) { return max(static_cast<unsigned int>(a), b); }
inline unsigned int max(unsigned int a, int b) { return max(a, static_cast<unsigned int>(b)); }
inline double min(float a, double b) { return fmin(a, b); }
inline double min(double a, float b) { return fmin(a, b); }
inline double max(float a, double b) { return fmax(a, b); }
inline double max(double a, float b) { return fmax(a, b); }

/// 1 / sqrt(x).
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
/// 1 / sqrt(x).
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
/// 1 / cbrt(x).
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
/// 1 / hypot(x, y).
inline float rhypotf(float x, float y) { return 1.0f / hypotf(x, y); }
/// sqrt(x² + y² + z²).
inline float norm3df(float x, float y, float z) { return sqrtf(x * x + y * y + z * z); }
/// x clamped to [0, 1].
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }

// Rounding-mode arithmetic: every mode computes round-to-nearest on the host.
#define CUGRADE_CPU_ROUNDED(name, T, expr) \
  inline T name##_rn(T a, T b) { return expr; } inline T name##_rz(T a, T b) { return expr; } \
  inline T name##_ru(T a, T b) { return expr; } inline T name##_rd(T a, T b) { return expr; }
CUGRADE_CPU_ROUNDED(__fadd, float, a + b)
CUGRADE_CPU_ROUNDED(__fsub, float, a - b)
CUGRADE_CPU_ROUNDED(__fmul, float, a * b)
CUGRADE_CPU_ROUNDED(__fdiv, float, a / b)
CUGRADE_CPU_ROUNDED(__dadd, double, a + b)
CUGRADE_CPU_ROUNDED(__dsub, double, a - b)
CUGRADE_CPU_ROUNDED(__dmul, double, a * b)
CUGRADE_CPU_ROUNDED(__ddiv, double, a / b)
#undef CUGRADE_CPU_ROUNDED
/// Fused multiply-add, one rounding.
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline float __fmaf_rz(float a, float b, float c) { return fmaf(a, b, c); }
inline float __fmaf_ru(float a, float b, float c) { return fmaf(a, b, c); }
inline float __fmaf_rd(float a, float b, float c) { return fmaf(a, b, c); }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return powf(10.0f, x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline void __sincosf(float x, float* s, float* c) { *s = sinf(x); *c = cosf(x); }

// Conversions and bit reinterpretation.
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline unsigned int __float_as_uint(float x) { return std::bit_cast<unsigned int>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline float __uint_as_float(unsigned int x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline int __float2int_rn(float x) { return static_cast<int>(nearbyintf(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(floorf(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(ceilf(x)); }
inline unsigned int __float2uint_rn(float x) { return static_cast<unsigned int>(nearbyintf(x)); }
inline unsigned int __float2uint_rz(float x) { return static_cast<unsigned int>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned int x) { return static_cast<float>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline int __double2int_rn(double x) { return static_cast<int>(nearbyint(x)); }
inline int __double2int_rz(double x) { return static_cast<int>(x); }

// Integer intrinsics.
inline int __popc(unsigned int x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned int>(x)) + 1; }
inline int __ffsll(long long x) {
  return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline unsigned int __brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline int __mul24(int a, int b) { return (a << 8 >> 8) * (b << 8 >> 8); }
inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline long long __mul64hi(long long a, long long b) { return static_cast<long long>((static_cast<__int128>(a) * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  return static_cast<unsigned int>((((static_cast<unsigned long long>(hi) << 32) | lo) << (shift & 31)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  return static_cast<unsigned int>((((static_cast<unsigned long long>(hi) << 32) | lo) >> (shift & 31)));
}

// Cache-hinted loads and stores: plain accesses on the host.
template <class T> T __ldg(const T* p) { return *p; }
template <class T> T __ldcg(const T* p) { return *p; }
template <class T> T __ldca(const T* p) { return *p; }
template <class T> T __ldcs(const T* p) { return *p; }
template <class T> T __ldlu(const T* p) { return *p; }
template <class T> T __ldcv(const T* p) { return *p; }
template <class T> void __stcg(T* p, T v) { *p = v; }
template <class T> void __stcs(T* p, T v) { *p = v; }
template <class T> void __stwb(T* p, T v) { *p = v; }
template <class T> void __stwt(T* p, T v) { *p = v; }

/// A cycle counter (the host's time-stamp counter).
inline long long clock64() { return static_cast<long long>(__builtin_ia32_rdtsc()); }
