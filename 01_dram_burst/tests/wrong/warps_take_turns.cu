/* expect: short
 * Correct but slow: the warps of a block take turns (a __syncthreads() between turns), as if they
 * would otherwise get in each other's way on warp_sums.  Every sum is right, read from the SoA
 * array the coalesced way, but a block now has one warp's 128-byte load in flight at a time instead
 * of eight (256-thread blocks): the reads cost a DRAM latency per warp, one after another, and the
 * kernel runs several times slower than the reference, at or below AoS's speed.  Passes the
 * comparison, the guards and the sanitizers (every thread of the block reaches every
 * __syncthreads(); each shuffle is made by a whole warp); the verdict must be "short of the goal"
 * (2x AoS), exit 6. */
#include "exercise.h"
#include "warp.cuh"

__global__ void mass_sums_soa(float *warp_sums, const float *mass, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    unsigned turn, warp = threadIdx.x / 32;
    for (turn = 0; turn < blockDim.x / 32; turn++) {
        if (warp == turn) {                                 /* one warp of the block at a time */
            float v = (i < n) ? mass[i] : 0.0f;
            v = warp_sum_xor(v);
            if ((threadIdx.x & 31) == 0 && i < n) warp_sums[i / 32] = v;
        }
        __syncthreads();
    }
}
