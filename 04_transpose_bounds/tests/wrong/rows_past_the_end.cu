/* expect: wrong "compute-sanitizer"
 * An out-of-bounds write past the last row: the kernel tests the column but forgets r < ny, so the
 * threads of the last block row that lie below the matrix (up to 7 rows of them with 8-row blocks)
 * read past the end of `in` and write past the end of `out`.  What they copy there is the checker's
 * own poison (the guard zone behind `in`) onto the same poison (the guard behind `out`): the guard
 * zones cannot see it and every element of the matrix is right.  The sanitizer's run, on buffers
 * of exactly the matrix's size, reports the first read past `in`. */
#include "exercise.h"

__global__ void copy_fast(float *out, const float *in, int nx, int ny)
{
    unsigned c = 4 * (blockIdx.x * blockDim.x + threadIdx.x), r = blockIdx.y * blockDim.y + threadIdx.y;
    size_t i = (size_t)r * nx + c;
    int k;
    (void)ny;
    if (c >= (unsigned)nx) return;   /* BUG: no r >= ny test */
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
    dim3 grid((nx + 4 * block.x - 1) / (4 * block.x), (ny + block.y - 1) / block.y);
    copy_fast<<<grid, block>>>(out, in, nx, ny);
}
