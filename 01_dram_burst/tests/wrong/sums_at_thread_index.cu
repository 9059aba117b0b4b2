/* expect: wrong "differ"
 * The sum stored at the thread's index instead of the warp's: warp_sums[i] where warp_sums[i / 32]
 * was meant.  Warp w's lane 0 has i = 32 w, so warp 0 is right and every other warp writes 32
 * places too far: warp_sums[1], [2], ... stay poisoned (NaN), and the later warps write past the
 * end of the buffer.  Caught by the comparison (n=33 block=32: "1 of 2 differ ... got -nan");
 * the guard after warp_sums is written too. */
#include "exercise.h"
#include "warp.cuh"

__global__ void mass_sums_soa(float *warp_sums, const float *mass, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    float v = (i < n) ? mass[i] : 0.0f;
    v = warp_sum_xor(v);
    if ((threadIdx.x & 31) == 0 && i < n) warp_sums[i] = v;   /* should be warp_sums[i / 32] */
}
