// Attack (includes reach the course tree): the compiler is given -I <assignments/vecadd>, so a
// quoted include two folders up is the instructor's own file, compiled into this submission as
// if it were the student's. Must fail: the compile sees only the submission and interface.cuh,
// and an include that leaves that folder is refused (compile_error), its text never quoted.
#include "../../reference/vecadd/vecadd.cu"
