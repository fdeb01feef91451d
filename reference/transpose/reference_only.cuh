// The reference-only entry point of assignment transpose: one stretch kernel past the lectures,
// showing how close a transpose gets to a plain copy. Students never write it; `cugrade
// selftest` checks it against the gold and `cugrade bench` times it.
//
// Like interface.cuh: declarations only, no include guard, no #include (graders/transpose/
// adapter.cpp includes this file inside namespace cugrade_reference). Layout and rules are those
// of interface.cuh: `in` rows×cols, `out` = inᵀ cols×rows, DEVICE pointers, any rows, cols >= 1.

/// Step "stretch" (beyond the lecture): the padded tile moved with float4 loads and stores by
/// blocks of 64 threads, 16 floats per thread; a scalar path for edge tiles and odd shapes.
void transpose_stretch(const float* in, float* out, int rows, int cols);
