// Attack (includes read files at compile time): include /dev/zero, an endless file. The
// preprocessor reads it to its end, which never comes: it eats the grader's memory until the
// machine swaps or kills something, or stalls the build until its time limit. Must fail
// quickly: an include of anything outside the submission's folder is refused before the
// compiler reads it (compile_error), and the compile runs with a memory limit anyway.
#include </dev/zero>

#include "interface.cuh"
