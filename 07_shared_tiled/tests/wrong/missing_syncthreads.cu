/* expect: wrong
 * The XOR swizzle of the reference solution without its __syncthreads.  In phase 2 a warp reads a
 * column of the tile: rows that the block's other 7 warps store in phase 1, and nothing makes it
 * wait for them.  A warp that runs ahead reads slots still holding an earlier block's tile, so the
 * compare with the CPU transpose catches it at the sizes where that happens; where the timing hides
 * it, compute-sanitizer's racecheck reports the shared-memory hazard between the two phases. */
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
    /* the mistake: no __syncthreads() here */
    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int col = ty + j, c = c0 + col, r = r0 + tx;
        if (c < nx && r < ny) out[(size_t)c * ny + r] = tile[tx][col ^ tx];
    }
}
