/* expect: wrong "differ"
 * Off by one at the end of a row: `c <= cols`.  The lane whose turn it is at c = cols adds the
 * first element of the NEXT row (of the last row: the first float past the matrix).  Every row
 * sum is off by one element, far beyond the error bound of a float sum.  Caught by the comparison
 * (1x1: the only row reads past the matrix, the guard's NaN; 1000x1 and the rest: one extra
 * element per row). */
#include "exercise.h"
#include "warp.cuh"

#include <stddef.h>

__global__ void row_sums_warp_per_row(float *sums, const float *m, int rows, int cols)
{
    size_t w = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31, c;
    const float *row;
    float acc = 0.0f;
    if (w >= (size_t)rows) return;
    row = m + w * (size_t)cols;
    for (c = lane; c <= cols; c += 32) acc += row[c];   /* should be c < cols */
    acc = warp_sum_xor(acc);
    if (lane == 0) sums[w] = acc;
}
