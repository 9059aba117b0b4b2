/* expect: wrong "wrote outside"
 * The store without its `i < n` guard.  Lane 0 of EVERY warp stores its sum, also in the warps that
 * lie wholly past the last particle (the last block's surplus warps: n = 1 with 256-thread blocks
 * has seven).  Their sums are 0 and land in warp_sums[1..7], past the (n + 31) / 32 sums the buffer
 * holds: memory that is allocated on a real GPU heap, so without a guard nothing would notice.
 * Caught by the guard zone after warp_sums (bench.h's guarded_alloc): n=1 block=256 FAILs with
 * "wrote outside `warp_sums`". */
#include "exercise.h"
#include "warp.cuh"

__global__ void mass_sums_soa(float *warp_sums, const float *mass, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    float v = (i < n) ? mass[i] : 0.0f;
    v = warp_sum_xor(v);
    if ((threadIdx.x & 31) == 0) warp_sums[i / 32] = v;   /* missing: && i < n */
}
