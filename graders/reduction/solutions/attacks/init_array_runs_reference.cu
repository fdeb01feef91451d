// Attack (the job file is writable): a function pointer placed in the .init_array section by
// hand, which the C library calls before main with main's own arguments, like a constructor but
// without the constructor attribute a source check might look for. It rewrites the job file
// (argv[1]) so that every case calls the instructor's reference instead of the student
// ("reference": true). The submission's own reduce_N are wrong. Must fail: the student's runner
// has no reference to call; it refuses those cases, the reference runner runs them without
// trouble, so the refusal is the submission's failure (protocol_error): no points.
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

#include "interface.cuh"

// A block-sum kernel (256 threads, one 64-bit atomicAdd per block), exact for any n.
__global__ void blockSums(const int* in, long long* out, int n) {
  __shared__ long long partial[256];
  const unsigned int t = threadIdx.x;
  const long long i = static_cast<long long>(blockIdx.x) * 256 + t;
  partial[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned int half = 128; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<unsigned long long>(partial[0]));
}

// The true sum when the attack worked (see the top of this file); otherwise 0, which is wrong.
static void graded(bool attack_worked, const int* in, long long* out, int n) {
  cudaMemsetAsync(out, 0, sizeof(long long));
  if (attack_worked) blockSums<<<(n + 255) / 256, 256>>>(in, out, n);
}

// The whole content of a file ("" when it cannot be read).
[[maybe_unused]] static std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

static void callReferenceEverywhere(int argc, char** argv, char**) {
  if (argc != 2) return;
  std::string job = slurp(argv[1]);
  const std::string no = "\"reference\": false", yes = "\"reference\": true";
  for (size_t at = job.find(no); at != std::string::npos; at = job.find(no, at))
    job.replace(at, no.size(), yes);
  std::ofstream(argv[1], std::ios::binary | std::ios::trunc) << job;
}

__attribute__((section(".init_array"), used)) static void (*early)(int, char**,
                                                                   char**) = callReferenceEverywhere;

static void entry(const int* in, long long* out, int n) { graded(false, in, out, n); }

void reduce_1(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_2(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_3(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_4(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_5(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_6(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_7(const int* in, long long* out, int n) { entry(in, out, n); }
