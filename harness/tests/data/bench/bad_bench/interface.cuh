#pragma once
// Two steps of a transpose, for the bench section's tests.
void transpose_naive(const float* in, float* out, int rows, int cols);
void transpose_padded(const float* in, float* out, int rows, int cols);
