/* expect: short
 * Correct but slow: each thread walks 16 consecutive elements of the tile -- the given chunked
 * kernel under another name.  Every element is incremented exactly once and nothing past n is
 * touched, but at each step the warp's 32 lanes are 16 floats (64 bytes) apart: 32 sectors per
 * request instead of 4, the stride-16 row of the lesson's table.  It runs at about the chunked
 * kernel's speed, short of the goal (2.5x), exit 6. */
#include "exercise.h"

__global__ void add_one_interleaved(float *a, size_t n)
{
    size_t first = blockIdx.x * (size_t)blockDim.x * ELEMS_PER_THREAD + (size_t)threadIdx.x * ELEMS_PER_THREAD;
    int k;
    for (k = 0; k < ELEMS_PER_THREAD; k++)
        if (first + k < n) a[first + k] += 1.0f;
}
