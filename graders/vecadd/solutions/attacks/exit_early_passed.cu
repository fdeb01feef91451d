// Attack (the runner's word): print what a naive autograder looks for ("PASSED", "All tests
// passed", a JSON score) and exit with status 0 before computing anything. Must fail: stdout
// and the exit code decide nothing; the case never finished, so it is charged as a crash.
#include <cstdio>
#include <cstdlib>

#include "interface.cuh"

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  std::printf("PASSED\nAll tests passed\n{\"score\": 100, \"max_score\": 100}\n");
  std::fflush(stdout);
  std::exit(0);
}
