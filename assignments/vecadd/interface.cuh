// The student contract of assignment vecadd: the one function a submission must define.
//
// Deliberately no include guard and no #include: cugrade includes this file twice in one
// translation unit, once at global scope (the student's vecAdd) and once inside
// `namespace cugrade_reference { ... }` (the instructor's vecAdd), so that both can be linked
// into the same runner; a guard would silently drop the second declaration.

/// C[i] = A[i] + B[i] for 0 <= i < n, the lecture's "vecAdd CUDA host code" (Kirk & Hwu).
/// h_A, h_B and h_C are HOST pointers to n floats each (h_C's contents on entry are garbage).
/// The function must do the whole round trip itself: cudaMalloc device copies of A, B and C,
/// cudaMemcpy A and B to the device, launch the kernel `vecAddKernel` (one thread per element,
/// ceil(n/256.0) blocks of 256 threads, with an `if (i < n)` bounds check), cudaMemcpy C back
/// into h_C and cudaFree the three device arrays. When it returns, h_C must hold the result.
/// Sizes: any n >= 1 (1, 7, 257, 1048579, ...), not only multiples of 256. h_A and h_B must
/// not be modified.
void vecAdd(const float* h_A, const float* h_B, float* h_C, int n);
