// Attack (includes reach the course tree): the compiler is given -I <assignments/matmul>, so
// quoted includes two folders up are the instructor's own files, compiled into this submission
// as if they were the student's: full marks, and on a GPU full performance points. Must fail: the
// compile sees only the submission and interface.cuh; an include leaving that folder is refused
// (compile_error), and no line of the included files appears in the report.
#include "../../reference/matmul/naive.cu"
#include "../../reference/matmul/padded.cu"
#include "../../reference/matmul/tiled.cu"
#include "../../reference/matmul/coarse.cu"
