// The student contract of assignment reduction: the functions a submission must define.
//
// Deliberately no include guard and no #include: cugrade includes this file twice in one
// translation unit, once at global scope (the student's functions) and once inside
// `namespace cugrade_reference { ... }` (the instructor's), so that both can be linked into the
// same runner; a guard would silently drop the second set of declarations.
//
// Every step computes the same thing, the sum of n ints, through a different lecture kernel
// (Harris's reduce1..reduce7). `in` and `out` are DEVICE pointers: `in` holds n ints (any
// n >= 1, not only multiples of the block size) and must not be modified; `out` points to ONE
// long long, holding garbage, which must receive the exact sum. The function launches its
// kernel(s) on the default stream and returns; it need not synchronize (cugrade does). It may
// allocate (and must free) device scratch memory for the partial sums of the blocks.

/// Step "reduce1": interleaved addressing, `if (tid % (2*s) == 0) sdata[tid] += sdata[tid + s]`
/// (divergent warps), one element per thread, the kernel relaunched over the block sums.
void reduce_1(const int* in, long long* out, int n);

/// Step "reduce2": interleaved addressing with a strided index, `index = 2*s*tid` (no divergence,
/// shared-memory bank conflicts), one element per thread, relaunched over the block sums.
void reduce_2(const int* in, long long* out, int n);

/// Step "reduce3": sequential addressing, `for (s = blockDim.x/2; s > 0; s >>= 1) if (tid < s)
/// sdata[tid] += sdata[tid + s]` (no divergence, no conflicts), relaunched over the block sums.
void reduce_3(const int* in, long long* out, int n);

/// Step "reduce4": as reduce3, but each thread adds two elements while loading
/// (`in[i] + in[i + blockDim.x]`, half as many blocks), relaunched over the block sums.
void reduce_4(const int* in, long long* out, int n);

/// Step "reduce5": as reduce4, with the last warp (s <= 32) unrolled; since Volta a warp is not
/// implicitly synchronous, so the unrolled steps need __syncwarp() (or warp shuffles).
void reduce_5(const int* in, long long* out, int n);

/// Step "reduce6": as reduce5, fully unrolled for a block size known at compile time
/// (`template <unsigned int blockSize>`), relaunched over the block sums.
void reduce_6(const int* in, long long* out, int n);

/// Step "reduce7": many elements per thread (a grid-stride loop over a grid of bounded size),
/// then the reduce6 block reduction; the block sums may be combined with one atomicAdd each.
void reduce_7(const int* in, long long* out, int n);
