// Corpus item (build only): Samples/0_Introduction/simpleVoteIntrinsics/simpleVoteIntrinsics.cu has no kernel of a course assignment; it is
// graded as a vecadd submission whose vecAdd does nothing, so what it shows is whether the
// file builds as written (its main renamed) and links.
#include "common_headers.cuh"
#define main corpus_unused_main
#include "Samples/0_Introduction/simpleVoteIntrinsics/simpleVoteIntrinsics.cu"
#undef main

void vecAdd(const float*, const float*, float*, int) {}
