/* expect: wrong "differ"
 * Swapped indices: a correct diagonal walk over the gx x gy grid, but block_x and block_y traded
 * places when the tile's first column and row are formed (c from block_y, r from block_x).  On a
 * square grid the walk is symmetric and every tile is still taken once (1x1, 256x64 with 32x8
 * blocks pass); on a rectangular one tiles outside the grid are asked for and others are never
 * taken: at 33x31 (grid 2x4) the comparison reports elements that differ.  The bounds test keeps
 * every access inside the matrix. */
#include "exercise.h"

__global__ void transpose_diagonal_2d(float *out, const float *in, int nx, int ny)
{
    unsigned gx = gridDim.x, gy = gridDim.y;
    unsigned b = blockIdx.x + gx * blockIdx.y;
    unsigned block_x = b % gx;
    unsigned block_y = (b / gx + block_x) % gy;

    unsigned c = block_y * blockDim.x + threadIdx.x, r = block_x * blockDim.y + threadIdx.y;   /* BUG: swapped */
    if (c < (unsigned)nx && r < (unsigned)ny) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}
