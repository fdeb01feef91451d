#pragma once
// CUDA's built-in vector types (dim3, uint3, float4, ...) with the alignment CUDA gives them,
// and their make_* constructors.

// Why a macro: the 30-odd vector types differ only in element type, count and alignment.
#define CUGRADE_CPU_VEC1(T, N, A) struct alignas(A) N { T x; };
#define CUGRADE_CPU_VEC2(T, N, A) struct alignas(A) N { T x, y; };
#define CUGRADE_CPU_VEC3(T, N, A) struct N { T x, y, z; };
#define CUGRADE_CPU_VEC4(T, N, A) struct alignas(A) N { T x, y, z, w; };
#define CUGRADE_CPU_VECS(T, P, A1, A2, A4)                                      \
  CUGRADE_CPU_VEC1(T, P##1, A1) CUGRADE_CPU_VEC2(T, P##2, A2)                    \
  CUGRADE_CPU_VEC3(T, P##3, A1) CUGRADE_CPU_VEC4(T, P##4, A4)                    \
  inline P##1 make_##P##1(T x) { return {x}; }                                   \
  inline P##2 make_##P##2(T x, T y) { return {x, y}; }                           \
  inline P##3 make_##P##3(T x, T y, T z) { return {x, y, z}; }                   \
  inline P##4 make_##P##4(T x, T y, T z, T w) { return {x, y, z, w}; }

CUGRADE_CPU_VECS(signed char, char, 1, 2, 4)
CUGRADE_CPU_VECS(unsigned char, uchar, 1, 2, 4)
CUGRADE_CPU_VECS(short, short, 2, 4, 8)
CUGRADE_CPU_VECS(unsigned short, ushort, 2, 4, 8)
CUGRADE_CPU_VECS(int, int, 4, 8, 16)
CUGRADE_CPU_VECS(unsigned int, uint, 4, 8, 16)
CUGRADE_CPU_VECS(long, long, 8, 16, 16)
CUGRADE_CPU_VECS(unsigned long, ulong, 8, 16, 16)
CUGRADE_CPU_VECS(long long, longlong, 8, 16, 16)
CUGRADE_CPU_VECS(unsigned long long, ulonglong, 8, 16, 16)
CUGRADE_CPU_VECS(float, float, 4, 8, 16)
CUGRADE_CPU_VECS(double, double, 8, 16, 16)

#undef CUGRADE_CPU_VECS
#undef CUGRADE_CPU_VEC1
#undef CUGRADE_CPU_VEC2
#undef CUGRADE_CPU_VEC3
#undef CUGRADE_CPU_VEC4

/// Grid and block dimensions; unspecified components are 1, as in CUDA.
struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
