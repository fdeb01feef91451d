// The student contract of assignment nbody: the functions a submission must define.
//
// Deliberately no include guard and no #include: cugrade includes this file twice in one
// translation unit, once at global scope (the student's functions) and once inside
// `namespace cugrade_reference { ... }` (the instructor's), so that both can be linked into the
// same runner; a guard would silently drop the second set of declarations.
//
// Layout (lecture 000): X and Y hold NT rows of N floats, X[nt*N + i] being the x coordinate of
// body i at time step nt (row 0 is the initial state). VX, VY, AX, AY hold N floats each. Every
// pointer is a DEVICE pointer; each function launches its kernels on the default stream and
// returns (it need not synchronize: cugrade does). N is any size >= 1, not only a multiple of 256.
// Physics: a_n = mG * sum over k != n of (r_k - r_n) / |r_k - r_n|^3 with mG = 10, where a pair
// at most 0.01 apart contributes nothing; r_{i+1} = r_i + v_i*tau + a_i*tau^2/2, v_{i+1} = v_i + a_i*tau.

/// Step "accel_global": the lecture's Acceleration_GPU, one thread per body reading every body
/// from global memory: AX[i], AY[i] = the acceleration of body i from the positions of row nt-1
/// (1 <= nt < NT). X and Y must not be modified.
void nbody_accel_global(const float* X, const float* Y, float* AX, float* AY, int nt, int N);

/// Step "accel_shared": the same result with the lecture's Acceleration_Shared: each block of 256
/// threads walks the bodies in tiles of 256, staged in __shared__ float Xs[256], Ys[256] with
/// __syncthreads() around the computing phase; the last tile may be partial.
void nbody_accel_shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N);

/// Step "position": the lecture's Position_GPU for step nt (1 <= nt < NT): writes row nt of X and
/// Y from row nt-1, VX, VY, AX, AY (r + v*tau + a*tau*tau/2, with the velocity BEFORE this step),
/// then updates VX, VY in place (v += a*tau). Every other row of X and Y must stay as it is;
/// AX and AY must not be modified.
void nbody_position(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY,
                    float tau, int nt, int N);

/// Step "simulate_global": the lecture's time loop, for nt = 1 .. NT-1: the accelerations from
/// row nt-1 with the global-memory kernel, then the position update writing row nt. Row 0 of X,
/// Y and VX, VY hold the initial state; rows 1..NT-1 hold garbage to overwrite; VX, VY end as
/// the velocities after the last step. Allocate (and free) the AX, AY scratch yourself.
void nbody_simulate_global(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N);

/// Step "simulate_shared": the same time loop with the shared-memory acceleration kernel.
void nbody_simulate_shared(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N);
