/* expect: wrong "differ"
 * The swizzle written the same way in both phases: phase 2 reads tile[col][tx ^ col], the slot of
 * tile element (col, tx), where output (c, r) needs element (tx, col) -- the row and the column of
 * the tile swapped, so each output row gets an input row back instead of a column.  Only the
 * tile's diagonal comes out right; from the 1x4099 shape on the compare with the CPU transpose
 * finds the rest (elements that differ, or slots phase 1 never wrote). */
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
        if (c < nx && r < ny) out[(size_t)c * ny + r] = tile[col][tx ^ col];   /* the mistake: [tx][col ^ tx] */
    }
}
