#pragma once
// c[i] = a[i] + b[i] for i < n. (A commented-out vec_sub(...) is not a declaration.)
void vec_add(const float* a, const float* b, float* c, int n);
