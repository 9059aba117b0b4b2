/* Lesson 05 exercise, reference solution: each warp of the 1-D block moves a patch of 4 rows x 8
 * columns, so its load touches 4 whole sectors and its store 8 half sectors (12 in all, against
 * 36 for a warp along one row).  See exercise.cu for the task. */
#include "exercise.h"

__global__ void transpose_warp_patch(float *out, const float *in, int nx, int ny)
{
    unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    unsigned r = blockIdx.y * PATCH_TILE_H + (warp / 4) * 4 + lane / 8;
    unsigned c = blockIdx.x * PATCH_TILE_W + (warp % 4) * 8 + lane % 8;
    if (r < (unsigned)ny && c < (unsigned)nx) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}
