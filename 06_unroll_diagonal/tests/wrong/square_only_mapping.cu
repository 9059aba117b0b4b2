/* expect: wrong "differ"
 * The source's diagonal mapping, as the skeleton has it (Tan Sheng's, block_order.h's
 * block_order_diagonal_square_only): block_y = blockIdx.x, block_x = (blockIdx.x + blockIdx.y) %
 * gridDim.x.  It never looks at gridDim.y, so it is a bijection only on a square grid: at 33x31
 * (grid 2x4 with 32x8 blocks) tile rows 2 and 3 are never taken and stay poisoned, and the
 * comparison reports elements that differ.  (No index leaves the matrix: the bounds test stays.) */
#include "exercise.h"

__global__ void transpose_diagonal_2d(float *out, const float *in, int nx, int ny)
{
    unsigned block_y = blockIdx.x;
    unsigned block_x = (blockIdx.x + blockIdx.y) % gridDim.x;

    unsigned c = block_x * blockDim.x + threadIdx.x, r = block_y * blockDim.y + threadIdx.y;
    if (c < (unsigned)nx && r < (unsigned)ny) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}
