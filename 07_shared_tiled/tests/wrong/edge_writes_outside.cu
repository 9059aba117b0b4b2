/* expect: wrong "wrote outside"
 * The edge tiles' stores test only the output column (r < ny), not the output row (c < nx): in the
 * last column of tiles the threads past the matrix's last column store up to 31 output rows past
 * its end.  Every element inside the matrix is right, so the compare alone would pass; the guard
 * zone after `out` changes, already at 1x1, and the checker names it. */
#include "exercise.h"

__global__ void transpose_tile_noconflict(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float tile[EX_TILE][EX_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c0 = blockIdx.x * EX_TILE, r0 = blockIdx.y * EX_TILE;
    int j;

    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int row = ty + j, r = r0 + row, c = c0 + tx;
        if (r < ny && c < nx) tile[row][tx ^ row] = in[(size_t)r * nx + c];
    }
    __syncthreads();
    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int col = ty + j, c = c0 + col, r = r0 + tx;
        if (r < ny) out[(size_t)c * ny + r] = tile[tx][col ^ tx];   /* the mistake: no c < nx */
    }
}
