/* expect: short
 * Correct but slow: every element moved on its own, 4-byte loads and stores, even where the rows
 * allow float2.  Right at every size.  With 8x8 blocks each store instruction writes 4 of the 8
 * floats of each of 8 sectors (the other 4 come with the next instruction), and each thread has 4
 * bytes per load in flight instead of 8: short of the goal, 0.90x the float4 4x4 tile. */
#include "exercise.h"

__global__ void transpose_reg2x2(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    const int c0 = 2 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 2 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    int i, k;
    if (r0 >= ny || c0 >= nx) return;
    for (k = 0; k < 2; k++)
        for (i = 0; i < 2; i++)
            if (r0 + i < ny && c0 + k < nx) out[(size_t)(c0 + k) * ny + r0 + i] = in[(size_t)(r0 + i) * nx + c0 + k];
}
