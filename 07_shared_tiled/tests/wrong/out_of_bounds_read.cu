/* expect: wrong "compute-sanitizer"
 * Phase 1 tests the column but not the row: in the last row of tiles, threads past the matrix's
 * last row load up to 31 rows past the end of `in`.  Those slots are never stored (phase 2's tests
 * are right), so every output element is right and nothing outside `out` is written: the compare
 * and the guard zones pass (the reads land in the guard after `in`).  The checker's run under
 * compute-sanitizer memcheck, on buffers without guards, reports the out-of-bounds global read. */
#include "exercise.h"

__global__ void transpose_tile_noconflict(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float tile[EX_TILE][EX_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c0 = blockIdx.x * EX_TILE, r0 = blockIdx.y * EX_TILE;
    int j;

    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int row = ty + j, r = r0 + row, c = c0 + tx;
        if (c < nx) tile[row][tx ^ row] = in[(size_t)r * nx + c];   /* the mistake: no r < ny */
    }
    __syncthreads();
    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int col = ty + j, c = c0 + col, r = r0 + tx;
        if (c < nx && r < ny) out[(size_t)c * ny + r] = tile[tx][col ^ tx];
    }
}
