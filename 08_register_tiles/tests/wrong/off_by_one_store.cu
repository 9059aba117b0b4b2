/* expect: wrong "wrote outside"
 * Off by one at the edges: the bounds tests read `<=` where they mean `<`, so a thread on the last
 * row or column also moves the row or column one past it.  At 1x4099 (one column) the thread of
 * column 0 also moves "column 1": out[4099 + r] = in[r + 1], past the end of `out`, into the guard
 * zone after it, which the checker names ("wrote outside `out`").  (At 1x1 the extra stores write
 * what the extra loads read from the guard after `in`: the guard's own pattern, which leaves no
 * trace; the next shape catches it.) */
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
        *(float2 *)(out + (size_t)c0 * ny + r0) = make_float2(a0.x, a1.x);
        *(float2 *)(out + (size_t)(c0 + 1) * ny + r0) = make_float2(a0.y, a1.y);
        return;
    }
    for (k = 0; k < 2; k++)
        for (i = 0; i < 2; i++)   /* the mistake: <= instead of < */
            if (r0 + i <= ny && c0 + k <= nx) out[(size_t)(c0 + k) * ny + r0 + i] = in[(size_t)(r0 + i) * nx + c0 + k];
}
