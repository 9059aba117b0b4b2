/* expect: short
 * Correct but slow: one thread per row after all.  Each warp owns its row as asked, but only lane
 * 0 reads it, left to right, while the other 31 lanes wait: every load instruction of the warp
 * moves 4 useful bytes, and the kernel issues 32 times as many of them as a warp that reads 32
 * consecutive floats at a time.  The sums are right (any summation order is within the error
 * bound), nothing is touched out of place and no shuffle is left half-done; it runs at about the
 * speed of the given one-thread-per-row kernel, short of the goal (2x), exit 6. */
#include "exercise.h"

#include <stddef.h>

__global__ void row_sums_warp_per_row(float *sums, const float *m, int rows, int cols)
{
    size_t w = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31, c;
    const float *row;
    float acc = 0.0f;
    if (w >= (size_t)rows || lane != 0) return;
    row = m + w * (size_t)cols;
    for (c = 0; c < cols; c++) acc += row[c];
    sums[w] = acc;
}
