/* expect: short
 * The skeleton made correct and nothing more: phase 2 reads tile element (tx, ty + j) where phase 1
 * stored it, tile[tx][ty + j].  Right at every size, no padding -- and the 32 lanes of a warp read
 * a column of the tile, words tx * 32 + j, all in bank j: 32 passes per read, experiment 2's
 * unpadded tile.  It runs at about 0.6x the padded tile (0.62x on the H100, 0.50x on the H200 in
 * the committed runs), short of the goal of 0.90x. */
#include "exercise.h"

__global__ void transpose_tile_noconflict(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float tile[EX_TILE][EX_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c0 = blockIdx.x * EX_TILE, r0 = blockIdx.y * EX_TILE;
    int j;

#pragma unroll
    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int r = r0 + ty + j, c = c0 + tx;
        if (r < ny && c < nx) tile[ty + j][tx] = in[(size_t)r * nx + c];
    }
    __syncthreads();
#pragma unroll
    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int c = c0 + ty + j, r = r0 + tx;
        if (c < nx && r < ny) out[(size_t)c * ny + r] = tile[tx][ty + j];   /* a column: 32-way conflicts */
    }
}
