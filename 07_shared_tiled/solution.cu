/* Lesson 07 exercise, reference solution: a conflict-free [32][32] tile by XOR swizzling.
 *
 * Element (row, col) of the tile is stored at tile[row][col ^ row].  In each row, col -> col ^ row
 * is a permutation of 0..31, so phase 1 (a warp writes one row, col = tx) still touches 32
 * different banks.  In phase 2 a warp reads logical column col of rows tx = 0..31, i.e. words
 * tx * 32 + (col ^ tx): bank col ^ tx, a different bank for every lane.  No padding, no conflicts,
 * and an XOR costs one instruction. */
#include "exercise.h"

__global__ void transpose_tile_noconflict(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float tile[EX_TILE][EX_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c0 = blockIdx.x * EX_TILE, r0 = blockIdx.y * EX_TILE;
    int j;

#pragma unroll
    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int row = ty + j, r = r0 + row, c = c0 + tx;
        if (r < ny && c < nx) tile[row][tx ^ row] = in[(size_t)r * nx + c];
    }
    __syncthreads();  /* outside every branch: all threads of the block arrive */
#pragma unroll
    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int col = ty + j, c = c0 + col, r = r0 + tx;  /* output row c, column r = tile element (tx, col) */
        if (c < nx && r < ny) out[(size_t)c * ny + r] = tile[tx][col ^ tx];
    }
}
