/* expect: wrong "misaligned address"
 * float2 accesses without the alignment test: the fast path is taken whenever the whole 2x2 block
 * is inside the matrix.  A float2 must be 8-byte aligned; at an odd nx, row r of `in` starts at
 * byte 4 r nx, which is not a multiple of 8 for odd r (and at an odd ny the same holds for `out`).
 * At 33x31, the first shape with a whole block, the load of row 1 is misaligned: the GPU stops the
 * kernel with "misaligned address" (compute-sanitizer memcheck names the access too). */
#include "exercise.h"

__global__ void transpose_reg2x2(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    const int c0 = 2 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 2 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    int i, k;
    if (r0 >= ny || c0 >= nx) return;
    if (r0 + 1 < ny && c0 + 1 < nx) {   /* the mistake: inside, but not necessarily aligned */
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
