/* expect: wrong "differ"
 * Right only when nx and ny are both even: a thread whose 2x2 block sticks out of the matrix
 * leaves at once, so at an odd nx the last column, at an odd ny the last row, is never written.
 * No access leaves the matrix; the comparison finds the poisoned (NaN) elements at the first odd
 * shape (1x1). */
#include "exercise.h"

__global__ void transpose_reg2x2(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    const int c0 = 2 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 2 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (r0 + 1 >= ny || c0 + 1 >= nx) return;   /* the mistake: a partial block is skipped, not moved */
    if (((nx | ny) & 1) == 0) {
        const float2 a0 = *(const float2 *)(in + (size_t)r0 * nx + c0);
        const float2 a1 = *(const float2 *)(in + (size_t)(r0 + 1) * nx + c0);
        *(float2 *)(out + (size_t)c0 * ny + r0) = make_float2(a0.x, a1.x);
        *(float2 *)(out + (size_t)(c0 + 1) * ny + r0) = make_float2(a0.y, a1.y);
        return;
    }
    out[(size_t)c0 * ny + r0] = in[(size_t)r0 * nx + c0];
    out[(size_t)c0 * ny + r0 + 1] = in[(size_t)(r0 + 1) * nx + c0];
    out[(size_t)(c0 + 1) * ny + r0] = in[(size_t)r0 * nx + c0 + 1];
    out[(size_t)(c0 + 1) * ny + r0 + 1] = in[(size_t)(r0 + 1) * nx + c0 + 1];
}
