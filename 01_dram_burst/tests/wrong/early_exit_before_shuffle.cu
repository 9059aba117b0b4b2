/* expect: wrong
 * Lanes that return before the full-mask shuffle: `if (i >= n) return;` first, then
 * warp_sum_xor, whose __shfl_xor_sync(0xffffffff, ...) names all 32 lanes.  In the last warp the
 * lanes past n have exited, and a shuffle that reads an exited lane gets an undefined value (CUDA
 * C++ Programming Guide, warp shuffle functions): undefined behaviour that may well produce the
 * right sums, as it did on the H100 of issue 22.  The sums are then all equal to the CPU's, so the
 * comparison and the guards pass; what should catch it is the checker's run under
 * compute-sanitizer --tool synccheck (checker.h), which the exercise asks for
 * because mass_sums_soa shuffles.  (If the undefined values happen to differ from 0, the
 * comparison catches it first: wrong either way, which is why no text is expected.) */
#include "exercise.h"
#include "warp.cuh"

__global__ void mass_sums_soa(float *warp_sums, const float *mass, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    float v;
    if (i >= n) return;                                     /* the whole warp must reach the shuffle */
    v = warp_sum_xor(mass[i]);
    if ((threadIdx.x & 31) == 0) warp_sums[i / 32] = v;
}
