/* expect: wrong "nan"
 * The load without its `i < n` guard: every lane reads mass[i], also the lanes past the last
 * particle, whose values then go into the last warp's sum.  The store is guarded, so nothing is
 * written out of place; only what is read is wrong.  On a plain allocation those floats are
 * whatever follows the array (often zeros: the sum comes out right).  Caught by the guard zone
 * after mass[]: it holds NaN (POISON_BYTE), so the last warp's sum is NaN (n=1 block=32: lanes
 * 1..31 read the guard) and the comparison FAILs with "got nan". */
#include "exercise.h"
#include "warp.cuh"

__global__ void mass_sums_soa(float *warp_sums, const float *mass, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    float v = mass[i];                                      /* missing: (i < n) ? ... : 0.0f */
    v = warp_sum_xor(v);
    if ((threadIdx.x & 31) == 0 && i < n) warp_sums[i / 32] = v;
}
