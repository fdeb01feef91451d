// Attack (the reference is reachable): no declaration, no undefined symbol, nothing a link-time
// check can see: at run time, read the runner's own executable (/proc/self/exe), find the
// instructor's reduce_N in its symbol table, and call it through a function pointer. Must fail:
// the reference is not in the student's runner at all (it runs in a process of its own), so
// there is nothing to find and the submission is graded on its own (wrong) numbers.
// How to read the outcome: the submission's own answer is wrong (every sum is 0) unless the
// attack worked, in which case it computes the true sum. So "passed" means the attack worked,
// and the expected outcome, wrong_answer, means it was stopped.
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
#include <elf.h>

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

using Entry = void (*)(const int*, long long*, int);

// The address of `wanted` in this process, from the executable's .symtab; `anchor` (a function of
// ours, at `anchor_address`) gives the load offset of a position-independent executable.
static void* findSymbol(const std::string& wanted, const std::string& anchor, void* anchor_address) {
  const std::string image = slurp("/proc/self/exe");
  if (image.size() < sizeof(Elf64_Ehdr) || image.compare(0, 4, ELFMAG) != 0) return nullptr;
  const auto* header = reinterpret_cast<const Elf64_Ehdr*>(image.data());
  const auto* sections = reinterpret_cast<const Elf64_Shdr*>(image.data() + header->e_shoff);
  Elf64_Addr found = 0, anchor_value = 0;
  for (int s = 0; s < header->e_shnum; ++s) {
    if (sections[s].sh_type != SHT_SYMTAB) continue;
    const char* names = image.data() + sections[sections[s].sh_link].sh_offset;
    const auto* symbols = reinterpret_cast<const Elf64_Sym*>(image.data() + sections[s].sh_offset);
    for (size_t k = 0; k < sections[s].sh_size / sizeof(Elf64_Sym); ++k) {
      if (wanted == names + symbols[k].st_name) found = symbols[k].st_value;
      if (anchor == names + symbols[k].st_name) anchor_value = symbols[k].st_value;
    }
  }
  if (found == 0 || anchor_value == 0) return nullptr;
  return static_cast<char*>(anchor_address) + (found - anchor_value);
}

static void entry(const int* in, long long* out, int n, int step, const char* own_name, Entry own) {
  const std::string reference = "_ZN17cugrade_reference8reduce_" + std::to_string(step) + "EPKiPxi";
  if (void* found = findSymbol(reference, own_name, reinterpret_cast<void*>(own))) {
    reinterpret_cast<Entry>(found)(in, out, n);
    return;
  }
  graded(false, in, out, n);
}

void reduce_1(const int* in, long long* out, int n) { entry(in, out, n, 1, "_Z8reduce_1PKiPxi", reduce_1); }
void reduce_2(const int* in, long long* out, int n) { entry(in, out, n, 2, "_Z8reduce_2PKiPxi", reduce_2); }
void reduce_3(const int* in, long long* out, int n) { entry(in, out, n, 3, "_Z8reduce_3PKiPxi", reduce_3); }
void reduce_4(const int* in, long long* out, int n) { entry(in, out, n, 4, "_Z8reduce_4PKiPxi", reduce_4); }
void reduce_5(const int* in, long long* out, int n) { entry(in, out, n, 5, "_Z8reduce_5PKiPxi", reduce_5); }
void reduce_6(const int* in, long long* out, int n) { entry(in, out, n, 6, "_Z8reduce_6PKiPxi", reduce_6); }
void reduce_7(const int* in, long long* out, int n) { entry(in, out, n, 7, "_Z8reduce_7PKiPxi", reduce_7); }
