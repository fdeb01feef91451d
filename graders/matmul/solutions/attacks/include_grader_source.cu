// Attack (includes reach the course tree; build logs quote what they read): include the
// grader, which generates the inputs and computes the gold, through an angle-bracket include
// resolved against the -I folders. It cannot compile here, and the compiler's errors quote its
// lines, so the student's report used to carry the grader's source: how inputs are generated,
// the tolerances' reasons, hidden-case details. Must fail: the include is refused before the
// file is read (compile_error), and the report quotes no line of it.
#include <../../graders/matmul/grader.cpp>

#include "interface.cuh"
