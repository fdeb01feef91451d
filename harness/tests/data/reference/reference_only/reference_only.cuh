// The reference-only entry points of test spec reference_only (no include guard, as interface.cuh).
void twice_exact(const float* x, float* y, int n);
void twice_slow(const float* x, float* y, int n);
