/* expect: wrong "differ"
 * Row and column swapped: m[c * rows + w], the address of element (w, c) in a COLUMN-major matrix.
 * With one row or one column (1x1, 1000x1, 1x1000) the two layouts coincide and it passes; from
 * 31x33 on it adds the wrong elements.  Caught by the comparison at 31x33. */
#include "exercise.h"
#include "warp.cuh"

#include <stddef.h>

__global__ void row_sums_warp_per_row(float *sums, const float *m, int rows, int cols)
{
    size_t w = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31, c;
    float acc = 0.0f;
    if (w >= (size_t)rows) return;
    for (c = lane; c < cols; c += 32) acc += m[(size_t)c * rows + w];   /* should be m[w * cols + c] */
    acc = warp_sum_xor(acc);
    if (lane == 0) sums[w] = acc;
}
