/* expect: wrong "differ"
 * A float4 copy that assumes nx % 4 == 0: it reads row r as the nx / 4 float4s at
 * (float4 *)in + r * (nx / 4).  When nx is a multiple of 4 that is exactly row r; otherwise the
 * float4 "rows" are shorter than the real ones, drift away from them row after row, and the
 * nx % 4 floats at the end of every row are never copied (at 1x1, nx / 4 = 0: nothing is).  Every
 * access stays aligned and inside the matrix: only the comparison catches it, as elements that
 * differ (poisoned NaN where nothing was written). */
#include "exercise.h"

__global__ void copy_fast(float *out, const float *in, int nx, int ny)
{
    unsigned c4 = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned w = (unsigned)nx / 4;   /* BUG: float4s per row, assuming nx % 4 == 0 (no tail) */
    if (r >= (unsigned)ny || c4 >= w) return;
    ((float4 *)out)[(size_t)r * w + c4] = ((const float4 *)in)[(size_t)r * w + c4];
}

void launch_copy_fast(float *out, const float *in, int nx, int ny)
{
    dim3 block(32, 8);
    dim3 grid((nx + 4 * block.x - 1) / (4 * block.x), (ny + block.y - 1) / block.y);
    copy_fast<<<grid, block>>>(out, in, nx, ny);
}
