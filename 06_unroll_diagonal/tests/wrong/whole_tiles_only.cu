/* expect: wrong "differ"
 * Misses the last partial tile: the mapping counts the tiles as nx / blockDim.x by ny /
 * blockDim.y, whole tiles only, instead of the grid's gridDim.x by gridDim.y (which rounds up).
 * The diagonal walk then never reaches the last tile column or row of a matrix that is not a
 * multiple of the block: at 33x31 with 32x8 blocks it counts 1 x 3 tiles of a 2 x 4 grid, so column
 * 32 and rows 24-30 stay poisoned and the comparison reports elements that differ.  (A matrix
 * smaller than one block has no whole tile at all; the tests for 0 keep it at tile (0, 0), which
 * is right there.)  The bounds test keeps every access inside the matrix. */
#include "exercise.h"

__global__ void transpose_diagonal_2d(float *out, const float *in, int nx, int ny)
{
    unsigned gx = (unsigned)nx / blockDim.x, gy = (unsigned)ny / blockDim.y;   /* BUG: rounds down */
    unsigned b = blockIdx.x + gridDim.x * blockIdx.y;
    unsigned block_x = gx ? b % gx : 0;
    unsigned block_y = gy ? (b / (gx ? gx : 1) + block_x) % gy : 0;

    unsigned c = block_x * blockDim.x + threadIdx.x, r = block_y * blockDim.y + threadIdx.y;
    if (c < (unsigned)nx && r < (unsigned)ny) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}
