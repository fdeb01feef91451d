// Attack (includes read files at compile time): include a file of the grader's system by its
// absolute path. It is not C++, so the compile fails, and the compiler's errors quote its first
// lines ("root:x:0:0:root:/root:/bin/bash"): the file's content reached the student's report.
// The same include of the course's secret file, a classmate's submission or the reference would
// leak them just as well. Must fail: an include outside the submission's folder is refused
// before it is read (compile_error), and no line of the file appears in the report.
#include "/etc/passwd"

#include "interface.cuh"
