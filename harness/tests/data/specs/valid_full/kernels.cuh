#pragma once
// C = A·B for row-major M×K and K×N matrices.
void matmul_naive (const float* a, const float* b, float* c, int m, int n, int k);
void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k);
