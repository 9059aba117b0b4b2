/* Lesson 01 exercise, reference solution: the masses in their own array, so a warp's 32 loads
 * are 128 consecutive bytes -- four sectors, all of them used.  See exercise.cu for the task. */
#include "exercise.h"
#include "warp.cuh"

__global__ void mass_sums_soa(float *warp_sums, const float *mass, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    float v = (i < n) ? mass[i] : 0.0f;
    v = warp_sum_xor(v);  /* all 32 lanes take part, in range or not */
    if ((threadIdx.x & 31) == 0 && i < n) warp_sums[i / 32] = v;
}
