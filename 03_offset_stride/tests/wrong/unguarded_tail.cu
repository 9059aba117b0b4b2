/* expect: wrong "differ"
 * The last tile unguarded: no `i < n`.  Every tile is handled whole, so the last one increments up
 * to blockDim.x x ELEMS_PER_THREAD - 1 elements past n (n=1 block=32: elements 1..511): memory that
 * is allocated on a real GPU heap, where nothing would notice.  Caught by the comparison of the 64
 * elements after n, which must come out unchanged ("... of 65 differ; first at [1]"); the touches
 * further out land in the array's guard zone. */
#include "exercise.h"

__global__ void add_one_interleaved(float *a, size_t n)
{
    size_t tile = blockIdx.x * (size_t)blockDim.x * ELEMS_PER_THREAD;
    int k;
    (void)n;                                                 /* missing: if (i < n) */
    for (k = 0; k < ELEMS_PER_THREAD; k++) a[tile + (size_t)k * blockDim.x + threadIdx.x] += 1.0f;
}
