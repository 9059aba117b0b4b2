/* expect: wrong "differ"
 * A copy that works only for square matrices (and wide ones): the launch sizes the grid's height
 * from nx, as if there were nx rows.  The kernel itself is right and tests r < ny, so a wide matrix
 * only gets idle blocks; but a tall one (31x33: 4 block rows of 8 cover 32 of its 33 rows; 1x40009:
 * 8 of 40009) has rows that no thread copies, and they stay poisoned: elements that differ. */
#include "exercise.h"

__global__ void copy_fast(float *out, const float *in, int nx, int ny)
{
    unsigned c = 4 * (blockIdx.x * blockDim.x + threadIdx.x), r = blockIdx.y * blockDim.y + threadIdx.y;
    size_t i = (size_t)r * nx + c;
    int k;
    if (r >= (unsigned)ny || c >= (unsigned)nx) return;
    if (nx % 4 == 0) {
        *(float4 *)&out[i] = *(const float4 *)&in[i];
    } else {
        float v[4];
#pragma unroll
        for (k = 0; k < 4; k++) v[k] = (c + k < (unsigned)nx) ? in[i + k] : 0.0f;
#pragma unroll
        for (k = 0; k < 4; k++)
            if (c + k < (unsigned)nx) out[i + k] = v[k];
    }
}

void launch_copy_fast(float *out, const float *in, int nx, int ny)
{
    dim3 block(32, 8);
    dim3 grid((nx + 4 * block.x - 1) / (4 * block.x), (nx + block.y - 1) / block.y);   /* BUG: nx rows */
    copy_fast<<<grid, block>>>(out, in, nx, ny);
}
