/* expect: wrong "differ"
 * x and y swapped inside the 2x2 block: the float2 path stores each input row as an output row --
 * output row c0 gets a0 = (in[r0][c0], in[r0][c0 + 1]) instead of (a0.x, a1.x) = (in[r0][c0],
 * in[r0 + 1][c0]) -- so the off-diagonal corners are not exchanged.  The scalar path is right, so
 * every odd shape passes; the comparison fails at the first even one (2x2). */
#include "exercise.h"

__global__ void transpose_reg2x2(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    const int c0 = 2 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 2 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    int i, k;
    if (r0 >= ny || c0 >= nx) return;
    if (((nx | ny) & 1) == 0) {
        const float2 a0 = *(const float2 *)(in + (size_t)r0 * nx + c0);
        const float2 a1 = *(const float2 *)(in + (size_t)(r0 + 1) * nx + c0);
        *(float2 *)(out + (size_t)c0 * ny + r0) = a0;         /* the mistake: should be (a0.x, a1.x) */
        *(float2 *)(out + (size_t)(c0 + 1) * ny + r0) = a1;   /* ... and (a0.y, a1.y) */
        return;
    }
    for (k = 0; k < 2; k++)
        for (i = 0; i < 2; i++)
            if (r0 + i < ny && c0 + k < nx) out[(size_t)(c0 + k) * ny + r0 + i] = in[(size_t)(r0 + i) * nx + c0 + k];
}
