/* expect: wrong "differ"
 * Square only: the thread takes its columns from the grid's y index and its rows from its x index.
 * The grid has ceil(nx / (2 blockDim.x)) x ceil(ny / (2 blockDim.y)) threads' worth of blocks, so
 * with nx == ny the swapped threads still cover the whole matrix and the result is right; on any
 * other shape part of the matrix gets no thread.  The bounds tests keep every access inside; the
 * comparison finds the unwritten (NaN) elements at the first non-square shape (1x4099). */
#include "exercise.h"

__global__ void transpose_reg2x2(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    const int c0 = 2 * (int)(blockIdx.y * blockDim.y + threadIdx.y);  /* the mistake: y picks the columns */
    const int r0 = 2 * (int)(blockIdx.x * blockDim.x + threadIdx.x);  /* ... and x the rows */
    int i, k;
    if (r0 >= ny || c0 >= nx) return;
    if (((nx | ny) & 1) == 0) {
        const float2 a0 = *(const float2 *)(in + (size_t)r0 * nx + c0);
        const float2 a1 = *(const float2 *)(in + (size_t)(r0 + 1) * nx + c0);
        *(float2 *)(out + (size_t)c0 * ny + r0) = make_float2(a0.x, a1.x);
        *(float2 *)(out + (size_t)(c0 + 1) * ny + r0) = make_float2(a0.y, a1.y);
        return;
    }
    for (k = 0; k < 2; k++)
        for (i = 0; i < 2; i++)
            if (r0 + i < ny && c0 + k < nx) out[(size_t)(c0 + k) * ny + r0 + i] = in[(size_t)(r0 + i) * nx + c0 + k];
}
