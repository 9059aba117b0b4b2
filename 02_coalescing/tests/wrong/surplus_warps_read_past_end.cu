/* expect: wrong "compute-sanitizer"
 * The store is guarded (`w < rows`), but the surplus warps still walk a "row" past the end of the
 * matrix: they read memory that is not theirs and throw the sum away.  The sums are right and no
 * byte outside the buffers changes, so neither the comparison nor the guard zones (which a read
 * leaves as it found them) can tell.  Caught by the checker's run under compute-sanitizer
 * --tool memcheck, on buffers of exactly the matrix's size (no guards in that run: checker.h),
 * where the first read past the end is an "Invalid __global__ read" (1x1 block=256).  Without
 * compute-sanitizer on the machine the checker says so, and this kernel passes. */
#include "exercise.h"
#include "warp.cuh"

#include <stddef.h>

__global__ void row_sums_warp_per_row(float *sums, const float *m, int rows, int cols)
{
    size_t w = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31, c;
    const float *row = m + w * (size_t)cols;
    float acc = 0.0f;
    for (c = lane; c < cols; c += 32) acc += row[c];   /* also for w >= rows */
    acc = warp_sum_xor(acc);
    if (lane == 0 && w < (size_t)rows) sums[w] = acc;
}
