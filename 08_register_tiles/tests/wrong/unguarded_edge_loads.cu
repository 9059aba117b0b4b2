/* expect: wrong "compute-sanitizer"
 * The edge loads are unguarded: on the scalar path (an odd nx or ny) the thread loads all four
 * elements of its 2x2 block before it looks at the edges, and only the stores are guarded.  Every
 * element written is right, so the comparison passes, and the loads past the last row land in the
 * guard zone after `in` (read, never stored: nothing shows).  compute-sanitizer memcheck, which
 * runs the kernel on buffers of exactly the matrix's size, reports the first load past the end
 * (at 1x1 already: in[1] and in[2] of a one-float matrix). */
#include "exercise.h"

__global__ void transpose_reg2x2(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    const int c0 = 2 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 2 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (r0 >= ny || c0 >= nx) return;
    if (((nx | ny) & 1) == 0) {
        const float2 a0 = *(const float2 *)(in + (size_t)r0 * nx + c0);
        const float2 a1 = *(const float2 *)(in + (size_t)(r0 + 1) * nx + c0);
        *(float2 *)(out + (size_t)c0 * ny + r0) = make_float2(a0.x, a1.x);
        *(float2 *)(out + (size_t)(c0 + 1) * ny + r0) = make_float2(a0.y, a1.y);
        return;
    }
    /* the mistake: four loads, no bounds test (column c0 + 1 or row r0 + 1 may be outside) */
    const float v00 = in[(size_t)r0 * nx + c0], v01 = in[(size_t)r0 * nx + c0 + 1];
    const float v10 = in[(size_t)(r0 + 1) * nx + c0], v11 = in[(size_t)(r0 + 1) * nx + c0 + 1];
    if (r0 + 1 < ny && c0 + 1 < nx) {  /* a whole block */
        out[(size_t)c0 * ny + r0] = v00;
        out[(size_t)c0 * ny + r0 + 1] = v10;
        out[(size_t)(c0 + 1) * ny + r0] = v01;
        out[(size_t)(c0 + 1) * ny + r0 + 1] = v11;
        return;
    }
    out[(size_t)c0 * ny + r0] = v00;
    if (r0 + 1 < ny) out[(size_t)c0 * ny + r0 + 1] = v10;
    if (c0 + 1 < nx) out[(size_t)(c0 + 1) * ny + r0] = v01;
}
