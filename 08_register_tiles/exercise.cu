/* Lesson 08 exercise: the float2 2x2 register-tile transpose.
 *
 * Each thread moves a 2x2 block of the matrix through registers: two 8-byte loads (one float2 from
 * each of two input rows), a swap of the off-diagonal corners, two 8-byte stores (one float2 to
 * each of two output rows).  Experiment 1 measures the float4 4x4 version; before you write this
 * one, predict from the sector arithmetic (the "st sect/req" column) how it will compare with
 * blocks of 8x8 and of 16x16 threads.
 *
 * TODO: write transpose_reg2x2 (exercise.h says exactly what each thread moves).
 *   1. Thread (x, y) owns rows r0 = 2y, 2y+1 and columns c0 = 2x, 2x+1 (given below).  A thread
 *      whose r0 or c0 is outside the matrix does nothing.
 *   2. Fast path, when it is legal: a float2 access must be 8-byte aligned.  The buffers are, but
 *      is in + r * nx + c for every row r?  And out + c * ny + r?  Decide from nx and ny when both
 *      hold, and when the whole 2x2 block is then inside the matrix.
 *   3. Everything else (odd nx or ny): move the up-to-four elements one by one, each with its
 *      own bounds test -- out[c * ny + r] = in[r * nx + c].
 * The checker runs your kernel at 1x1, 1x4099, 4099x1, 33x31, 1000x777, 8191x4097 and some even
 * shapes, with several block shapes, on poisoned output between guard zones: every element must be
 * right and nothing written outside the output; then once more under compute-sanitizer memcheck,
 * which catches a read past the end of the input too.
 *
 * Then `make exercise` times it with 8x8 and 16x16 blocks, and gives the verdict: the goal is your
 * kernel with 8x8 blocks at 0.90x or more of the lesson's float4 4x4 tile with 8x8 blocks.  Was
 * your prediction right?  `make profile-exercise` shows the sectors per store request of both. */
#include "exercise.h"

__global__ void transpose_reg2x2(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    const int c0 = 2 * (int)(blockIdx.x * blockDim.x + threadIdx.x);  /* first of this thread's 2 columns */
    const int r0 = 2 * (int)(blockIdx.y * blockDim.y + threadIdx.y);  /* first of its 2 rows            */

    /* TODO: your code here (and delete the lines below). */
    (void)in;
    (void)out;
    (void)nx;
    (void)ny;
    (void)c0;
    (void)r0;
}
