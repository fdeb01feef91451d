// The relaunch driver of the reduction references reduce1..reduce6 (lectures 001 and 003): one
// launch reduces each block's elements to one partial sum, and the kernel is launched again over
// the partial sums until one is left (the kernel launch is the lectures' global
// synchronisation). Each reduceN.cu includes this file; cugrade compiles them inside namespace
// cugrade_reference, so it includes nothing and defines no macros. On the CPU backend the
// pre-pass inlines it into each reference and rewrites the launches below.
#pragma once

/// Sums the n ints of `in` into *out: `first` reduces the ints, `later` the long long partial
/// sums of the level before, each a kernel (const T* in, long long* out, unsigned int n) whose
/// blocks of `threads` threads reduce `per_block` elements each with `threads` long longs of
/// dynamic shared memory. Returns without waiting for the kernels.
template <class First, class Later>
void relaunch_until_one(First first, Later later, unsigned int threads, unsigned int per_block,
                        const int* in, long long* out, int n) {
  const size_t smem = threads * sizeof(long long);
  unsigned int count = static_cast<unsigned int>(n);
  unsigned int blocks = (count + per_block - 1) / per_block;
  if (blocks == 1) {
    first<<<1, threads, smem>>>(in, out, count);
    return;
  }
  // Two scratch arrays of partial sums, used in turn: one level reads one and writes the other
  // (reducing in place would let a block overwrite sums another block has not read yet).
  long long* scratch = nullptr;
  cudaMalloc(&scratch, (blocks + (blocks + per_block - 1) / per_block) * sizeof(long long));
  long long* src = scratch;
  long long* dst = scratch + blocks;
  first<<<blocks, threads, smem>>>(in, src, count);
  count = blocks;
  while (count > 1) {
    blocks = (count + per_block - 1) / per_block;
    long long* target = (blocks == 1) ? out : dst;  // the last level writes the answer
    later<<<blocks, threads, smem>>>(src, target, count);
    dst = src;
    src = target;
    count = blocks;
  }
  // cudaFree waits for the kernels above to finish with the scratch memory.
  cudaFree(scratch);
}
