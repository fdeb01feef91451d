// cugrade's entry point: everything is in cli/; exceptions here are harness bugs (exit 3).
#include <cstdio>
#include <exception>

#include "cli/app.hpp"

int main(int argc, char** argv) {
  try {
    return cugrade::run_cli(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cugrade: internal error (a bug in cugrade, not in your code): %s\n", e.what());
    return 3;
  }
}
