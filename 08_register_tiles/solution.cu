/* Lesson 08 exercise, reference solution: the float2 2x2 register-tile transpose.  (The lesson's
 * own table has no float2 row -- the answer would come before the question; the checker, built
 * with this file into ./solution, times it next to the lesson's float4 4x4 tile.)
 *
 * Thread (x, y) loads rows 2y and 2y+1 of columns 2x, 2x+1 as two float2, swaps the corners in
 * registers and stores columns 2x and 2x+1 as two float2 rows of the output.
 * Fast path: with nx and ny both even, every row of `in` and of `out` starts on an 8-byte boundary
 * (the buffers are 256-byte aligned and every row pitch is a multiple of 2 floats), and a 2x2
 * block that starts inside the matrix lies wholly inside it -- so two 8-byte loads and two 8-byte
 * stores are legal.  Otherwise (an odd nx or ny) float2 accesses could straddle rows or be
 * misaligned, and the thread moves its up to four elements one by one with bounds tests. */
#include "exercise.h"

__global__ void transpose_reg2x2(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    const int c0 = 2 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 2 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    int i, k;
    if (r0 >= ny || c0 >= nx) return;  /* no barrier in this kernel: leaving early is safe */
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
