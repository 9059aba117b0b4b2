/* expect: wrong "wrote outside"
 * Off by one at the end of a row: the store loop tests c + k <= nx instead of c + k < nx, so the
 * thread that holds the end of a row also stores the 0.0f it loaded "for nothing" one float past
 * it.  Inside the matrix that float is the first of the next row (a race with its own thread, which
 * the comparison may or may not see); after the last row it is the first float past `out`, which
 * changes the guard zone behind `out`: at 1x1 the only row is the last, so the checker names the
 * write ("wrote outside `out`"). */
#include "exercise.h"

__global__ void copy_fast(float *out, const float *in, int nx, int ny)
{
    unsigned c = 4 * (blockIdx.x * blockDim.x + threadIdx.x), r = blockIdx.y * blockDim.y + threadIdx.y;
    size_t i = (size_t)r * nx + c;
    float v[4];
    int k;
    if (r >= (unsigned)ny || c >= (unsigned)nx) return;
#pragma unroll
    for (k = 0; k < 4; k++) v[k] = (c + k < (unsigned)nx) ? in[i + k] : 0.0f;
#pragma unroll
    for (k = 0; k < 4; k++)
        if (c + k <= (unsigned)nx) out[i + k] = v[k];   /* BUG: <= */
}

void launch_copy_fast(float *out, const float *in, int nx, int ny)
{
    dim3 block(32, 8);
    dim3 grid((nx + 4 * block.x - 1) / (4 * block.x), (ny + block.y - 1) / block.y);
    copy_fast<<<grid, block>>>(out, in, nx, ny);
}
