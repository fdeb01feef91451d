// Corpus item (build only): simplest_kernel.cu has no kernel of a course assignment (its kernel
// is named `kernel`); it is graded as a vecadd submission whose vecAdd does nothing, so what it
// shows is whether the file builds as written (its main renamed) and links.
#define main corpus_unused_main
#include "simplest_kernel.cu"
#undef main

void vecAdd(const float*, const float*, float*, int) {}
