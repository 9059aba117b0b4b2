/* Lesson 02 exercise, reference solution: one warp per row.  At each step the warp's 32 lanes read
 * m[w * cols + base + lane] -- terms without threadIdx.x, plus the lane -- 128 consecutive bytes.
 * See exercise.cu for the task. */
#include "exercise.h"
#include "warp.cuh"

#include <stddef.h>

__global__ void row_sums_warp_per_row(float *sums, const float *m, int rows, int cols)
{
    size_t w = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31, c;
    const float *row;
    float acc = 0.0f;
    if (w >= (size_t)rows) return;   /* blockDim.x is a multiple of 32: whole warps leave */
    row = m + w * (size_t)cols;
    for (c = lane; c < cols; c += 32) acc += row[c];
    acc = warp_sum_xor(acc);         /* all 32 lanes of the warp are here */
    if (lane == 0) sums[w] = acc;
}
