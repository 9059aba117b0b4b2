/* expect: wrong "without padding"
 * Experiment 2's fix instead of the exercise's: a [32][33] tile, one float of padding per row.  It
 * is correct and as fast as the lesson's padded tile, but the exercise asks for a tile that stays
 * float[32][32]; the checker reads the kernel's shared memory (cudaFuncGetAttributes: 4224 bytes
 * per block, more than 4096) and fails it. */
#include "exercise.h"

__global__ void transpose_tile_noconflict(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float tile[EX_TILE][EX_TILE + 1];   /* the mistake: the padding */
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
        if (c < nx && r < ny) out[(size_t)c * ny + r] = tile[tx][ty + j];
    }
}
