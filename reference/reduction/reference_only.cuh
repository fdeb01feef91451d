// The reference-only entry point of assignment reduction: one stretch kernel past the lectures,
// a sum at the speed the GPU reads memory. Students never write it; `cugrade selftest` checks it
// against the gold and `cugrade bench` times it.
//
// Like interface.cuh: declarations only, no include guard, no #include (graders/reduction/
// adapter.cpp includes this file inside namespace cugrade_reference). Layout and rules are those
// of interface.cuh: n ints in, their sum in out[0], DEVICE pointers, any n >= 1.

/// Step "stretch" (beyond the lecture): int4 loads in a grid-stride loop over a grid sized from
/// the GPU, warp-shuffle block sums and one 64-bit atomicAdd per block.
void reduce_stretch(const int* in, long long* out, int n);
