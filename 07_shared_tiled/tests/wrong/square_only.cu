/* expect: wrong "differ"
 * Written and tried on square matrices only: both bounds tests compare rows and columns with nx.
 * When nx == ny that is right.  At 1x4099 (one column, 4099 rows) only row 0 is loaded and only
 * output element 0 is written: the rest of the output keeps its poison (NaN) and the compare with
 * the CPU transpose fails.  (At the wider shapes the kernel also reads and writes up to 31 rows past
 * the matrices' ends, into the guard zones around them: wrong there too.) */
#include "exercise.h"

__global__ void transpose_tile_noconflict(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float tile[EX_TILE][EX_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c0 = blockIdx.x * EX_TILE, r0 = blockIdx.y * EX_TILE;
    int j;

    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int row = ty + j, r = r0 + row, c = c0 + tx;
        if (r < nx && c < nx) tile[row][tx ^ row] = in[(size_t)r * nx + c];   /* the mistake: r < ny */
    }
    __syncthreads();
    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int col = ty + j, c = c0 + col, r = r0 + tx;
        if (c < nx && r < nx) out[(size_t)c * ny + r] = tile[tx][col ^ tx];   /* the mistake: r < ny */
    }
}
