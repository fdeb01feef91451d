// Corpus item (build only): series/cuda-cpp/shared-memory/shared-memory.cu has no kernel of a course assignment; it is graded as a vecadd
// submission whose vecAdd does nothing, so what it shows is whether the file builds as written
// (its main renamed) and links.
#define main corpus_unused_main
#include "series/cuda-cpp/shared-memory/shared-memory.cu"
#undef main

void vecAdd(const float*, const float*, float*, int) {}
