/* expect: wrong "wrote outside"
 * No `if (w >= rows) return;`: the warps past the last row (the last block's surplus warps: one row
 * with 256-thread blocks leaves seven) walk "rows" past the end of the matrix and store their sums
 * in sums[rows], sums[rows + 1], ...  Both the reads and the writes land in allocated memory on a
 * real GPU heap, where nothing would notice.  Caught by the guard zone after `sums` (1x1 block=256:
 * "wrote outside `sums`"); the reads past the matrix read its guard (NaN) but only into the surplus
 * sums. */
#include "exercise.h"
#include "warp.cuh"

#include <stddef.h>

__global__ void row_sums_warp_per_row(float *sums, const float *m, int rows, int cols)
{
    size_t w = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31, c;
    const float *row = m + w * (size_t)cols;   /* missing: if (w >= rows) return; */
    float acc = 0.0f;
    for (c = lane; c < cols; c += 32) acc += row[c];
    acc = warp_sum_xor(acc);
    if (lane == 0) sums[w] = acc;
    (void)rows;
}
