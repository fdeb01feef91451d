// cugrade-cpu-prepass in.cu out.cpp [name]: the pre-pass as a build step, for the reference
// solutions compiled into the CPU runner libraries. `name` (default: in.cu as given) is the file
// name #line directives report; `#include "x.cuh"` next to in.cu is inlined, pre-passed.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "prepass.hpp"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::cerr << "usage: cugrade-cpu-prepass in.cu out.cpp [reported-name]\n";
    return 1;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "cugrade-cpu-prepass: cannot read " << argv[1] << "\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  // Local headers are found next to the input and inlined, pre-passed (prepass.hpp).
  auto out = cugrade::cpu::cuda_to_cpp(text.str(), argc == 4 ? argv[3] : argv[1], cugrade::cpu::read_headers_from_disk());
  if (!out) {
    std::cerr << out.error().message << "\n";
    return 1;
  }
  std::ofstream file(argv[2], std::ios::binary);
  file << *out;
  return file ? 0 : 1;
}
