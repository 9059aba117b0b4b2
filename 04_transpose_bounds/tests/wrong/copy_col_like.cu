/* expect: short
 * Correct but slow: threadIdx.x walks down a column (lesson 02's copyCol), so the 32 lanes of a
 * warp are a whole row apart and each touches its own 32-byte sector on both sides.  Every element
 * is copied exactly once, so it verifies; at 8192 x 8192 on the H100 copyCol ran at about 15% of
 * cudaMemcpy (experiment 1 of lesson 04 with 32x8 blocks, answers/04), far below the goal of 0.90x. */
#include "exercise.h"

__global__ void copy_fast(float *out, const float *in, int nx, int ny)
{
    unsigned r = blockIdx.x * blockDim.x + threadIdx.x, c = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < (unsigned)ny && c < (unsigned)nx) out[(size_t)r * nx + c] = in[(size_t)r * nx + c];
}

void launch_copy_fast(float *out, const float *in, int nx, int ny)
{
    dim3 block(32, 8);
    dim3 grid((ny + block.x - 1) / block.x, (nx + block.y - 1) / block.y);
    copy_fast<<<grid, block>>>(out, in, nx, ny);
}
