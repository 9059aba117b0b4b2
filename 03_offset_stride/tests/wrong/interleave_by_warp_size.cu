/* expect: wrong "differ"
 * Interleaving wrong: at step k thread t takes element 32 k + t of the tile, as if the block were
 * one warp (32 where blockDim.x was meant).  With 32-thread blocks that is right; with 256 threads
 * thread 40 at step 0 and thread 8 at step 1 both take element 40 (+2), and everything from
 * 32 x 15 + 256 = 736 to the tile's end is never touched (+0).  Caught by the comparison of every
 * element (n=1000 block=256). */
#include "exercise.h"

__global__ void add_one_interleaved(float *a, size_t n)
{
    size_t tile = blockIdx.x * (size_t)blockDim.x * ELEMS_PER_THREAD;
    int k;
    for (k = 0; k < ELEMS_PER_THREAD; k++) {
        size_t i = tile + (size_t)k * 32 + threadIdx.x;      /* should be k * blockDim.x */
        if (i < n) a[i] += 1.0f;
    }
}
