/* expect: wrong "differ"
 * Off by one at the tile's end: `k <= ELEMS_PER_THREAD`, one step too many.  The extra step k = 16
 * lands on the first row of the NEXT block's tile, which that block increments too: those elements
 * come out +2.  (At the last tile the `i < n` guard stops it, so small sizes with one tile pass.)
 * Caught by the comparison of every element (n=1000 block=32: two tiles of 512, elements 512..543
 * hold +2: "expected ..., got ..."). */
#include "exercise.h"

__global__ void add_one_interleaved(float *a, size_t n)
{
    size_t tile = blockIdx.x * (size_t)blockDim.x * ELEMS_PER_THREAD;
    int k;
    for (k = 0; k <= ELEMS_PER_THREAD; k++) {                /* should be k < ELEMS_PER_THREAD */
        size_t i = tile + (size_t)k * blockDim.x + threadIdx.x;
        if (i < n) a[i] += 1.0f;
    }
}
